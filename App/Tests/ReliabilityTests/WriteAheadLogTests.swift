import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A `-wal` log next to a store: its own log (after a crash) is replayed; a log that belongs to
/// another database, or a log whose database is gone, is refused before SQLite replays it.
///
/// Regression tests: before the fix, opening a store next to another store's log replayed the log,
/// reported "malformed", and the close checkpointed the foreign pages into the file (53 248 bytes
/// became 20 480: the library was destroyed). A log without its database was replayed into the new
/// store `openStore` created.
@Suite struct WriteAheadLogTests {
    /// A store at `path` whose last `walItems` pushes are only in its `-wal` (copied as a crash would leave them).
    static func crashedStore(at path: String, items: Int, walItems: Int, copyTo copy: String) throws {
        try Shelf.makeStore(at: path, count: items)
        let db = try Database.openStore(path: path, schemas: [Shelf.schema])
        let history = try DurableHistory(database: db, receiver: Shelf(database: db), registry: Shelf.registry)
        for number in 0..<walItems { try history.push(AddItem(id: 1000 + number, name: "logged \(number)", body: "w")) }
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        db.close()
    }

    @Test func ownLogAfterACrashIsReplayed() async throws {
        let folder = try ChildProcess.makeFolder("wal-own")
        defer { try? FileManager.default.removeItem(at: folder) }
        let crashed = folder.path + "/crashed.db"
        try Self.crashedStore(at: folder.path + "/live.db", items: 3, walItems: 4, copyTo: crashed)
        let db = try Database.openStore(path: crashed, schemas: [Shelf.schema])
        defer { db.close() }
        let names = try Shelf(database: db).all()
        #expect(names.filter { $0.hasPrefix("logged ") }.count == 4, "\(names)")
        try db.checkIntegrity()
    }

    @Test func foreignLogIsRefusedAndNothingChanges() async throws {
        let folder = try ChildProcess.makeFolder("wal-foreign")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.path + "/library.db"
        try Shelf.makeStore(at: library, count: 40)
        try Self.crashedStore(
            at: folder.path + "/other.db", items: 1, walItems: 5, copyTo: folder.path + "/other-copy.db")
        try FileManager.default.copyItem(atPath: folder.path + "/other-copy.db-wal", toPath: library + "-wal")
        let before = try Data(contentsOf: URL(fileURLWithPath: library))
        let logBefore = try Data(contentsOf: URL(fileURLWithPath: library + "-wal"))
        let error = #expect(throws: StoreError.self) {
            _ = try Database.openStore(path: library, schemas: [Shelf.schema])
        }
        #expect(error?.code == .corruptDatabase)
        #expect(error?.message.contains("library.db-wal") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: library + "-wal")) == logBefore)
        // Moving the log away gives the library back intact.
        try FileManager.default.removeItem(atPath: library + "-wal")
        try? FileManager.default.removeItem(atPath: library + "-shm")
        let db = try Database.openStore(path: library, schemas: [Shelf.schema])
        defer { db.close() }
        try db.checkIntegrity()
        #expect(try Shelf(database: db).all().count == 39)
    }

    @Test func logWithoutItsDatabaseIsRefused() async throws {
        let folder = try ChildProcess.makeFolder("wal-orphan")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.crashedStore(
            at: folder.path + "/other.db", items: 1, walItems: 5, copyTo: folder.path + "/other-copy.db")
        let library = folder.path + "/library.db"
        try FileManager.default.copyItem(atPath: folder.path + "/other-copy.db-wal", toPath: library + "-wal")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        do {
            _ = try Database.openStore(path: library, schemas: [Shelf.schema], configuration: configuration)
            Issue.record("a log without its database was accepted")
        } catch let error as StoreError {
            #expect(error.code == .corruptDatabase)
            #expect(error.message.contains("library.db-wal"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: library))
    }
}
