import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A damaged file that looks older than it is gets no migration: `openStore` refuses it unchanged.
///
/// Regression test: a flipped bit in `commandstore_schema` renamed the row of the albums schema
/// (`albums` → `albwms`), so opening ran the albums migrations again (`CREATE TABLE IF NOT EXISTS`:
/// no error) into a file whose index no longer matched its table, and `albums list` rewrote two
/// pages of the damaged file (DamagedLibraryTests found it). `openStore` now checks integrity before
/// it migrates an existing file.
@Suite struct DamagedMigrationTests {
    static let notes = Schema(
        identifier: "notes",
        migrations: [
            Migration(
                version: 1, name: "notes", sql: "CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, body TEXT)")
        ])

    @Test func aSchemaRowRenamedByDamageIsNotMigratedAgain() throws {
        let folder = try ChildProcess.makeFolder("damaged-migration")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/library.db"
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [Self.notes], configuration: configuration)
        db.close()
        // Rename the schema's row in the version table (page 2), not in its index (page 3).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let page2 = bytes[pageSize..<2 * pageSize]
        let offset = try #require(page2.firstRange(of: Data("notes".utf8))).lowerBound
        bytes[offset + 4] = UInt8(ascii: "z")
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) {
            _ = try Database.openStore(path: path, schemas: [Self.notes])
        }
        #expect(error?.code == .corruptDatabase, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the damaged file was written")
    }
}
