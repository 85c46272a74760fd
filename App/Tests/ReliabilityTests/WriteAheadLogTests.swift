import AlbumLibrary
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

    /// Issue 27: a log left by a killed process and damaged before some of its commits. SQLite
    /// drops those commits without a word; albums says so, once, on the run that meets the log.
    @Test func commitsLostWithADamagedLogAreSaid() async throws {
        let (folder, cli) = try await HostileEnvironmentTests.makeLibrary("wal-damaged", count: 5)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three adds committed to the log only (no checkpoint), copied as a killed process leaves them.
        let session = try LibrarySession.open(path: cli.database)
        try session.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for number in 1...3 { try session.add(Album(title: "Logged \(number)", artist: "Log")) }
        let crashed = folder.path + "/crashed.db"
        let intact = folder.path + "/intact.db"
        for copy in [crashed, intact] {
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: cli.database + suffix, toPath: copy + suffix)
            }
        }
        session.close()
        // One bit in the page data of the first frame after the first add's commit frame.
        let url = URL(fileURLWithPath: crashed + "-wal")
        var log = try Data(contentsOf: url)
        let frameSize = 24 + log[8..<12].reduce(0) { $0 << 8 | Int($1) }
        func isCommitFrame(_ frame: Int) -> Bool {
            let start = 32 + frame * frameSize
            return log[start + 4..<start + 8].contains { $0 != 0 }
        }
        let frames = (log.count - 32) / frameSize
        let firstCommit = try #require((0..<frames).first(where: isCommitFrame))
        log[32 + (firstCommit + 1) * frameSize + 24 + 1000] ^= 0x04
        try log.write(to: url)

        let sound = try await AlbumsCLI(database: intact).run(["list"])
        #expect(sound.status == 0 && sound.error.isEmpty, "\(sound)")
        #expect((1...3).allSatisfy { sound.output.contains("Logged \($0)") }, "\(sound)")

        let result = try await AlbumsCLI(database: crashed).run(["list"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.error
                == "albums: \(crashed)-wal, the write-ahead log left by a process that did not close the library, was "
                + "damaged: the last 2 commits logged in it could not be read and were discarded; the library is as "
                + "it was before them (restore a backup if you need them)\n", "\(result)")
        #expect(result.output.contains("Logged 1") && !result.output.contains("Logged 2"), "\(result)")
        // Said once: the log is gone with the run that met it.
        let next = try await AlbumsCLI(database: crashed).run(["list"])
        #expect(next.status == 0 && next.error.isEmpty && next.output == result.output, "\(next)")
    }
}
