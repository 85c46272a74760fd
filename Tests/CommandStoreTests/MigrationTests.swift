import CommandKit
import CommandStore
import Foundation
import Locking
import SQLiteDatabase
import Testing

@Suite struct MigrationTests {
    static let v1 = Migration(
        version: 1, name: "albums", sql: "CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT)")
    static let v2 = Migration(version: 2, name: "year") { db in
        try db.execute("ALTER TABLE album ADD COLUMN year INTEGER")
    }

    func createConfiguration() -> Database.Configuration {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        return configuration
    }

    @Test func newStoreIsCreatedMigratedAndPrivate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("nested/library.sqlite")
        let db = try Database.openStore(
            path: path,
            schemas: [Schema(identifier: "albums", migrations: [Self.v1, Self.v2])],
            configuration: createConfiguration()
        )
        #expect(try db.schemaVersion(of: "albums") == 2)
        #expect(try db.schemaVersion(of: "commandstore") == 7)
        #expect(try db.schemaVersion(of: "other") == nil)
        try db.execute("INSERT INTO album (title, year) VALUES (?, ?)", ["Blue", 1971])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.file("nested"))
        #expect(folder[.posixPermissions] as? Int == 0o700)
        // Only the store and its WAL companions: the temporary build file is gone.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("nested"))
        #expect(names.allSatisfy { $0.hasPrefix("library.sqlite") }, "\(names)")
    }

    @Test func upgradeRunsOnlyMissingMigrations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        try Database.openStore(
            path: path,
            schemas: [Schema(identifier: "albums", migrations: [Self.v1])],
            configuration: createConfiguration()
        ).close()
        let runs = LockedState<[Int]>([])
        let counting = Schema(
            identifier: "albums",
            migrations: [
                Migration(version: 1, name: "albums") { _ in runs.withLock { $0.append(1) } },
                Migration(version: 2, name: "year") { db in
                    runs.withLock { $0.append(2) }
                    try Self.v2.body(db)
                },
            ])
        let db = try Database.openStore(path: path, schemas: [counting])
        #expect(runs.withLock { $0 } == [2])
        #expect(try db.schemaVersion(of: "albums") == 2)
        db.close()
        _ = try Database.openStore(path: path, schemas: [counting])
        #expect(runs.withLock { $0 } == [2], "a migrated store runs nothing at the next open")
    }

    @Test func failingMigrationRollsBackTheWholeUpgrade() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        try Database.openStore(
            path: path,
            schemas: [Schema(identifier: "albums", migrations: [Self.v1])],
            configuration: createConfiguration()
        ).close()
        struct Boom: Error {}
        let failing = Schema(
            identifier: "albums",
            migrations: [
                Self.v1,
                Self.v2,
                Migration(version: 3, name: "boom") { _ in throw Boom() },
            ])
        #expect(throws: Boom.self) { try Database.openStore(path: path, schemas: [failing]) }
        let db = try Database.openStore(path: path, schemas: [Schema(identifier: "albums", migrations: [Self.v1])])
        #expect(try db.schemaVersion(of: "albums") == 1)
        // Version 2's column was rolled back with the rest.
        #expect(try db.fetchAll("PRAGMA table_info(album)").count == 2)
    }

    @Test func malformedSchemasAreRejected() throws {
        let gap = Schema(identifier: "albums", migrations: [Self.v2])
        #expect { try Database.openStore(path: ":memory:", schemas: [gap]) } throws: {
            ($0 as? StoreError)?.code == .invalidSchema
        }
        let twice = Schema(identifier: "albums", migrations: [Self.v1])
        #expect { try Database.openStore(path: ":memory:", schemas: [twice, twice]) } throws: {
            ($0 as? StoreError)?.code == .invalidSchema
        }
        let reserved = Schema(identifier: "commandstore", migrations: [])
        #expect { try Database.openStore(path: ":memory:", schemas: [reserved]) } throws: {
            ($0 as? StoreError)?.code == .invalidSchema
        }
    }

    @Test func missingStoreIsNotCreatedUnlessAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("absent.sqlite")
        #expect { try Database.openStore(path: path) } throws: {
            ($0 as? DatabaseError)?.resultCode == .cantOpen
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func inMemoryStoreIsMigrated() throws {
        let db = try Database.openStore(
            path: ":memory:", schemas: [Schema(identifier: "albums", migrations: [Self.v1])])
        #expect(try db.schemaVersion(of: "albums") == 1)
    }

    @Test func checkIntegrityReportsDamageAnywhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        let db = try Database.openStore(
            path: path,
            schemas: [Schema(identifier: "albums", migrations: [Self.v1])],
            configuration: createConfiguration()
        )
        try db.inTransaction {
            for index in 0..<2000 { try db.execute("INSERT INTO album (title) VALUES (?)", ["album \(index)"]) }
            return .commit
        }
        try db.checkIntegrity()
        db.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let lastPage = bytes.count - 4096
        bytes.replaceSubrange(lastPage..<(lastPage + 64), with: Data(repeating: 0xAB, count: 64))
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try Database.openStore(path: path, schemas: [Schema(identifier: "albums", migrations: [Self.v1])])
        #expect { try damaged.checkIntegrity() } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .corruptDatabase && error.message.contains(path)
        }
    }

    /// Issue 27, U3: a file that records a schema version lower than its tables (set back by hand,
    /// or by damage to the version's value): the migration meets its own tables ("duplicate column
    /// name"); the refusal says the file is inconsistent, and the upgrade leaves it as it was.
    @Test func aVersionRecordedLowerThanTheTablesIsRefusedAsInconsistentAndNothingChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        let schema = Schema(identifier: "albums", migrations: [Self.v1, Self.v2])
        let db = try Database.openStore(path: path, schemas: [schema], configuration: createConfiguration())
        try db.execute("UPDATE commandstore_schema SET version = ? WHERE identifier = ?", [1, "albums"])
        db.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try Database.openStore(path: path, schemas: [schema]) }
        #expect(error?.code == .corruptDatabase)
        #expect(
            error?.message
                == "\(path) is inconsistent: it records its albums schema at version 1, but its tables do not take "
                + "migration 2 (“year”): duplicate column name: year; it was not migrated and not changed")
        #expect(error?.databaseError?.resultCode == .error)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
}
