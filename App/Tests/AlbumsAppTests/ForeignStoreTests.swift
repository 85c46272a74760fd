import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Black-box: `albums --db FILE` on a CommandStore file made by another program refuses it and
/// leaves it byte-for-byte as it was.
@Suite struct ForeignStoreTests {
    @Test(arguments: [["list"], ["delete", "1"], ["add", "--title", "Blue Train", "--artist", "John Coltrane"]])
    func anotherProgramsStoreIsRefusedUnchanged(arguments: [String]) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.sqlite").path
        let notes = Schema(
            identifier: "notes",
            migrations: [
                Migration(
                    version: 1, name: "notes", sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            ])
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [notes], configuration: configuration)
        try db.execute("INSERT INTO note (text) VALUES ('buy milk')")
        db.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let result = try await AlbumsProcess(database: path).run(["--db", path] + arguments)
        #expect(result.status != 0, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        #expect(
            result.error.contains("\(path) belongs to another application (schemas: notes); this program uses: albums"),
            "\(result)")
        #expect(result.error.filter { $0 == "\n" }.count == 1, "one line: \(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the file's bytes changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing, "files appeared")
    }
}
