import CommandStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// A CommandStore file belongs to the application whose schemas it records: another application
/// opening it gets a clear refusal and leaves it byte-for-byte as it was.
@Suite struct ForeignApplicationTests {
    /// A schema named `identifier` with one table of the same name per version.
    static func schema(_ identifier: String, versions: Int = 1) -> Schema {
        Schema(
            identifier: identifier,
            migrations: (1...versions).map { version in
                Migration(
                    version: version, name: "\(identifier) \(version)",
                    sql: "CREATE TABLE \(identifier)_v\(version) (id INTEGER PRIMARY KEY, text TEXT)")
            })
    }

    let albums = Self.schema("albums")
    let notes = Self.schema("notes")

    /// Creates a store at `path` migrated with `schemas`, with a row in each schema's table, and closes it.
    func makeStore(at path: String, schemas: [Schema]) throws {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: schemas, configuration: configuration)
        for schema in schemas {
            try db.execute("INSERT INTO \(schema.identifier)_v1 (text) VALUES ('written by \(schema.identifier)')")
        }
        db.close()
    }

    /// Opens `path` with `schemas`, expects the other-application refusal with exactly `message`, and
    /// checks that neither the file nor the folder's listing changed.
    func expectRefusal(
        _ path: String,
        schemas: [Schema],
        message: String,
        context: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        do {
            _ = try Database.openStore(path: path, schemas: schemas, configuration: configuration)
            Issue.record(
                "opening \(path) succeeded; expected foreignDatabase \(context)", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            #expect(error.code == .foreignDatabase, "\(error) \(context)", sourceLocation: sourceLocation)
            #expect(error.path == path, "\(context)", sourceLocation: sourceLocation)
            #expect(error.message == message, "\(context)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected StoreError foreignDatabase, got \(error) \(context)", sourceLocation: sourceLocation)
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file's bytes changed \(context)",
            sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == listing,
            "files appeared or went away \(context)",
            sourceLocation: sourceLocation
        )
    }

    /// The tables of the store at `path`, read through a plain connection.
    func tables(at path: String) throws -> Set<String> {
        let db = try Database(path: path)
        defer { db.close() }
        return Set(
            try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table'").map {
                try $0.decode(String.self, at: 0)
            })
    }

    @Test func anotherApplicationsStoreIsRefusedAndUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        try makeStore(at: path, schemas: [notes])
        try expectRefusal(
            path,
            schemas: [albums],
            message:
                "\(path) belongs to another application (schemas: notes); this program uses: albums; the file was not changed"
        )
        // Refused again the same way: the first refusal left nothing behind that changes the verdict.
        try expectRefusal(
            path,
            schemas: [albums],
            message:
                "\(path) belongs to another application (schemas: notes); this program uses: albums; the file was not changed"
        )
        #expect(try tables(at: path).contains("albums_v1") == false)
    }

    /// Opening for writing switches a file to WAL mode, a write to its header: the refusal must come
    /// from the read-only look before that, so a file in rollback-journal mode keeps its bytes.
    @Test func anotherApplicationsStoreInRollbackJournalModeIsRefusedBeforeAnyWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        try makeStore(at: path, schemas: [notes])
        let writer = try Database(path: path)
        try writer.execute("PRAGMA journal_mode = DELETE")
        writer.close()
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).subdata(in: 18..<20)
        try #require(header == Data([1, 1]), "the file should be in rollback-journal mode")
        try expectRefusal(
            path,
            schemas: [albums],
            message:
                "\(path) belongs to another application (schemas: notes); this program uses: albums; the file was not changed"
        )
    }

    @Test func theMessageListsEverySchemaOnBothSides() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        // Recorded in the file sorted by name; this program's in the order it gives them.
        try makeStore(at: path, schemas: [Self.schema("tags"), notes])
        try expectRefusal(
            path,
            schemas: [Self.schema("ratings"), albums],
            message:
                "\(path) belongs to another application (schemas: notes, tags); this program uses: ratings, albums; "
                + "the file was not changed"
        )
    }

    /// Ownership is decided first: a newer version of the other application's schema is not the point.
    @Test func anotherApplicationsNewerStoreIsRefusedAsForeign() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        try makeStore(at: path, schemas: [Self.schema("notes", versions: 3)])
        try expectRefusal(
            path,
            schemas: [albums],
            message:
                "\(path) belongs to another application (schemas: notes); this program uses: albums; the file was not changed"
        )
    }

    /// While the other application has its store open, its `-wal` and `-shm` files exist: they stay as they were.
    @Test func anotherApplicationsLiveStoreIsRefusedAndUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        try makeStore(at: path, schemas: [notes])
        let other = try Database.openStore(path: path, schemas: [notes])
        defer { other.close() }
        try other.execute("PRAGMA wal_autocheckpoint = 0")
        try other.execute("INSERT INTO notes_v1 (text) VALUES ('only in the log')")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        try expectRefusal(
            path,
            schemas: [albums],
            message:
                "\(path) belongs to another application (schemas: notes); this program uses: albums; the file was not changed"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == log, "the log's bytes changed")
        #expect(try other.fetchOne("SELECT count(*) FROM notes_v1")?.decode(Int.self, at: 0) == 2)
    }

    /// The lock-free look reads the file without its log; a schema recorded only in the log is caught
    /// by the second look, still before any migration.
    @Test func anotherApplicationsSchemaOnlyInTheLogIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        try makeStore(at: path, schemas: [])
        let other = try Database(path: path)
        defer { other.close() }
        try other.execute("PRAGMA wal_autocheckpoint = 0")
        try other.execute("CREATE TABLE notes_v1 (id INTEGER PRIMARY KEY, text TEXT)")
        try other.execute("INSERT INTO commandstore_schema (identifier, version) VALUES ('notes', 1)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try Database.openStore(path: path, schemas: [albums])
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .foreignDatabase && error?.message.contains("(schemas: notes)") == true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try other.schemaVersion(of: "albums") == nil)
        #expect(
            try other.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 'albums_v1'")?.decode(Int.self, at: 0)
                == 0)
    }

    /// A flipped byte in the version table can rename the application's schema ("albums" to
    /// "albuns"): the file is damaged, not another application's, and says so.
    @Test func aSchemaRenamedByDamageIsReportedAsDamage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        try makeStore(at: path, schemas: [albums])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // The version table is the first table created (page 2); its index on identifier is page 3.
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let offset = try #require(bytes[pageSize..<2 * pageSize].firstRange(of: Data("albums".utf8))).lowerBound
        bytes[offset + 4] = UInt8(ascii: "n")
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) {
            _ = try Database.openStore(path: path, schemas: [albums])
        }
        #expect(error?.code == .corruptDatabase, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("\(path) is damaged (") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the damaged file was written")
    }

    /// A later version of an application adds a schema: its old files share the old one and open.
    @Test(arguments: [["albums", "ratings"], ["ratings", "albums"]])
    func aStoreSharingOneSchemaOpensAndMigratesTheNewOne(order: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        try makeStore(at: path, schemas: [albums])
        let db = try Database.openStore(path: path, schemas: order.map { Self.schema($0) })
        defer { db.close() }
        #expect(try db.schemaVersion(of: "albums") == 1)
        #expect(try db.schemaVersion(of: "ratings") == 1)
        #expect(try db.fetchOne("SELECT text FROM albums_v1")?.decode(String.self, at: 0) == "written by albums")
        #expect(try db.fetchOne("SELECT count(*) FROM ratings_v1")?.decode(Int.self, at: 0) == 0)
    }

    /// An older version that knows only some of the schemas also opens the file, and adds none.
    @Test func aStoreOpensWithASubsetOfItsSchemas() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("library.sqlite")
        try makeStore(at: path, schemas: [albums, Self.schema("ratings")])
        let db = try Database.openStore(path: path, schemas: [albums])
        defer { db.close() }
        #expect(try db.schemaVersion(of: "ratings") == 1)
        #expect(try db.schemaVersion(of: "albums") == 1)
    }

    /// A tool that only reads histories opens any application's store, and migrates no schema into it.
    @Test func openingWithNoSchemasReadsAnyApplicationsStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("other.sqlite")
        try makeStore(at: path, schemas: [notes])
        let tablesBefore = try tables(at: path)
        let db = try Database.openStore(path: path, schemas: [])
        #expect(try db.schemaVersion(of: "notes") == 1)
        #expect(try db.schemaVersion(of: "commandstore") != nil)
        #expect(try db.fetchOne("SELECT text FROM notes_v1")?.decode(String.self, at: 0) == "written by notes")
        db.close()
        #expect(try tables(at: path) == tablesBefore)
    }

    @Test func aFreshStoreOpensWithAnySchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("nested/new.sqlite")
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let db = try Database.openStore(path: path, schemas: [albums], configuration: configuration)
        #expect(try db.schemaVersion(of: "albums") == 1)
        db.close()
        // Reopened by the same application: its own file.
        let again = try Database.openStore(path: path, schemas: [albums])
        #expect(try again.schemaVersion(of: "albums") == 1)
        again.close()
    }

    /// A store created with no schema of its own yet (by a history-only tool) is claimed by the first
    /// application that opens it with its schemas.
    @Test func aStoreWithOnlyTheStoresOwnSchemaIsClaimedByTheFirstApplication() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("empty-store.sqlite")
        try makeStore(at: path, schemas: [])
        let db = try Database.openStore(path: path, schemas: [albums])
        #expect(try db.schemaVersion(of: "albums") == 1)
        db.close()
        try expectRefusal(
            path,
            schemas: [notes],
            message:
                "\(path) belongs to another application (schemas: albums); this program uses: notes; the file was not changed"
        )
    }

    /// The rule over random recorded and requested sets: refused exactly when both are non-empty and
    /// disjoint; otherwise opened with every requested schema migrated.
    @Test func randomSchemaSetsFollowTheRule() throws {
        let seed: UInt64 = 0x0A11_CE55
        var generator = SplitMix64(seed: seed)
        let pool = ["albums", "notes", "tags", "ratings"]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for step in 0..<24 {
            let recorded = pool.filter { _ in generator.next() % 3 == 0 }
            let requested = pool.filter { _ in generator.next() % 3 == 0 }.shuffled(using: &generator)
            let context = "seed \(seed), step \(step): recorded \(recorded), requested \(requested)"
            let path = directory.file("store-\(step).sqlite")
            try makeStore(at: path, schemas: recorded.map { Self.schema($0) })
            let refused = !recorded.isEmpty && !requested.isEmpty && Set(recorded).isDisjoint(with: requested)
            if refused {
                try expectRefusal(
                    path,
                    schemas: requested.map { Self.schema($0) },
                    message:
                        "\(path) belongs to another application (schemas: \(recorded.sorted().joined(separator: ", "))); "
                        + "this program uses: \(requested.joined(separator: ", ")); the file was not changed",
                    context: context
                )
                #expect(try tables(at: path).isDisjoint(with: requested.map { "\($0)_v1" }), "\(context)")
            } else {
                do {
                    let db = try Database.openStore(path: path, schemas: requested.map { Self.schema($0) })
                    defer { db.close() }
                    for identifier in Set(recorded).union(requested) {
                        #expect(try db.schemaVersion(of: identifier) == 1, "\(context): \(identifier)")
                    }
                } catch {
                    Issue.record("\(context): expected to open, got \(error)")
                }
            }
        }
    }
}
