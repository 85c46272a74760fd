// Deliberately no `import SQLiteDatabase`: this file compiles only because CommandStore re-exports
// it, as a client written before the SQL layer moved there expects (issue 25).
import CommandStore
import Testing

@Suite struct ReexportTests {
    @Test func aClientImportingCommandStoreAloneSeesTheSQLTypes() throws {
        let schema = Schema(
            identifier: "notes",
            migrations: [Migration(version: 1, name: "notes", sql: "CREATE TABLE note (id INTEGER PRIMARY KEY)")])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db: Database = try Database.openStore(
            path: directory.file("notes.sqlite"), schemas: [schema], configuration: configuration)
        defer { db.close() }
        try db.execute("INSERT INTO note (id) VALUES (?)", [7])
        #expect(try db.fetchOne("SELECT count(*) FROM note")?.decode(Int.self, at: 0) == 1)
        #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO note (id) VALUES (?)", [7]) }
    }
}
