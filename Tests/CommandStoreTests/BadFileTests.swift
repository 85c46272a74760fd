import CommandStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Every bad file gets a clear error naming it, and is left byte-for-byte as it was, with no
/// `-wal`, `-shm` or journal file created next to it.
@Suite struct BadFileTests {
    let albums = Schema(
        identifier: "albums",
        migrations: [
            Migration(
                version: 1, name: "albums", sql: "CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        ])

    /// Creates a valid, closed store holding some rows; returns its bytes.
    func makeStore(at path: String, rows: Int = 200) throws -> Data {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [albums], configuration: configuration)
        try db.inTransaction {
            for index in 0..<rows {
                try db.execute("INSERT INTO album (title) VALUES (?)", [String(repeating: "title \(index) ", count: 8)])
            }
            return .commit
        }
        db.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Opens `path`, expects a store error with `code` naming the file, and checks nothing changed.
    func expectRefusal(_ path: String, _ code: StoreError.Code, schemas: [Schema]? = nil) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        var configuration = Database.Configuration()
        configuration.createIfMissing = true  // even when allowed to create, an existing file is never replaced
        do {
            _ = try Database.openStore(path: path, schemas: schemas ?? [albums], configuration: configuration)
            Issue.record("opening \(path) succeeded; expected \(code)")
        } catch let error as StoreError {
            #expect(error.code == code, "\(error)")
            #expect(error.path == path)
            #expect(error.message.contains(path), "the message must name the file: \(error.message)")
        } catch {
            Issue.record("expected StoreError \(code), got \(error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file's bytes changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == listing, "files appeared")
    }

    @Test func textFileIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("notes.sqlite")
        try Data(String(repeating: "Kind of Blue, 1959\n", count: 300).utf8).write(to: URL(fileURLWithPath: path))
        try expectRefusal(path, .notADatabase)
    }

    @Test func randomBytesAreNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("noise.sqlite")
        var generator = SplitMix64(seed: 0x5EED)
        try Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(
            to: URL(fileURLWithPath: path))
        try expectRefusal(path, .notADatabase)
    }

    @Test func emptyFileIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("empty.sqlite")
        try Data().write(to: URL(fileURLWithPath: path))
        try expectRefusal(path, .notADatabase)
    }

    @Test(arguments: [0.5, 0.9])
    func truncatedStoreIsCorrupt(keeping fraction: Double) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let bytes = try makeStore(at: path)
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: path))
        try expectRefusal(path, .corruptDatabase)
    }

    @Test func storeTruncatedInsideItsHeaderIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let bytes = try makeStore(at: path)
        try bytes.prefix(60).write(to: URL(fileURLWithPath: path))
        try expectRefusal(path, .corruptDatabase)
    }

    @Test func damagedHeaderIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        var bytes = try makeStore(at: path)
        bytes.replaceSubrange(16..<24, with: Data(repeating: 0xFF, count: 8))
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefusal(path, .notADatabase)
    }

    @Test func damagedSchemaPageIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        var bytes = try makeStore(at: path)
        // Page 1 holds sqlite_master after the 100-byte header: scramble its b-tree page header.
        bytes.replaceSubrange(100..<112, with: Data(repeating: 0xEE, count: 12))
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectRefusal(path, .corruptDatabase)
    }

    @Test(arguments: ["DELETE", "WAL"])
    func foreignSQLiteDatabaseIsRefused(journalMode: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database(path: path, configuration: configuration)
        try db.execute("PRAGMA journal_mode = \(journalMode)")
        try db.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
        db.close()
        try expectRefusal(path, .foreignDatabase)
    }

    @Test func lookalikeWithoutApplicationIDIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("lookalike.sqlite")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database(path: path, configuration: configuration)
        try db.execute("CREATE TABLE commandstore_schema (identifier TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        db.close()
        try expectRefusal(path, .foreignDatabase)
    }

    @Test func newerApplicationSchemaIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let newer = Schema(
            identifier: "albums",
            migrations: albums.migrations + [
                Migration(version: 2, name: "year", sql: "ALTER TABLE album ADD COLUMN year INTEGER")
            ])
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        try Database.openStore(path: path, schemas: [newer], configuration: configuration).close()
        try expectRefusal(path, .newerSchema, schemas: [albums])
    }

    @Test func newerStoreSchemaIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        _ = try makeStore(at: path)
        let db = try Database(path: path)
        try db.execute("UPDATE commandstore_schema SET version = 99 WHERE identifier = 'commandstore'")
        db.close()
        try expectRefusal(path, .newerSchema)
    }

    /// The lock-free look ignores the WAL; a newer version that only the WAL holds is caught after.
    @Test func newerSchemaOnlyInTheWALIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        _ = try makeStore(at: path)
        let writer = try Database(path: path)
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("UPDATE commandstore_schema SET version = 5 WHERE identifier = 'albums'")
        // The writer stays open, so the update lives in the -wal file only.
        #expect {
            try Database.openStore(path: path, schemas: [albums])
        } throws: { ($0 as? StoreError)?.code == .newerSchema }
        #expect(try writer.schemaVersion(of: "albums") == 5)
        writer.close()
    }
}
