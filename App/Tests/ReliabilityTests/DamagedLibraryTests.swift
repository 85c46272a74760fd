import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// The `albums` CLI on damaged copies of a real library file.
///
/// For every copy, every command either works on a consistent library or fails with a clear
/// message; none crashes or hangs; reading commands leave the file's bytes (and its `-wal`) as they
/// were, and so does a writing command that fails. `RELIABILITY_LONG=1` runs the long form.
@Suite struct DamagedLibraryTests {
    static let seed: UInt64 = 0xA1B0_5DA3_A6E0_0007
    static var isLong: Bool { ProcessInfo.processInfo.environment["RELIABILITY_LONG"] == "1" }
    /// Under `Scripts/sanitize.sh` every `albums` run is a sanitized process (about a second each):
    /// fewer copies there keep CI short (the plain run covers the full fast form).
    static var isSanitized: Bool {
        let path = ChildProcess.productsFolder.path
        return path.contains(".build-tsan") || path.contains(".build-asan")
    }

    static let readCommands: [[String]] = [["list"], ["history"], ["export"], ["show", "1"], ["--json", "list"]]
    static let writeCommands: [[String]] = [
        ["add", "--title", "After", "--artist", "Damage"], ["undo"], ["redo"], ["edit", "1", "--title", "Edited"],
    ]

    /// A real library made by the CLI: an import, then edits, moves, deletes and an undo.
    static func makeLibrary(at path: String, in folder: String) async throws -> DamageGenerator {
        let cli = AlbumsCLI(database: path)
        let seedFile = folder + "/seed.json"
        try AlbumsCLI.importFile(count: 60, padding: 120).write(to: URL(fileURLWithPath: seedFile))
        for arguments in [
            ["import", seedFile], ["edit", "3", "--title", "Third"], ["move", "1", "9"], ["delete", "4"],
            ["add", "--title", "Blue", "--artist", "Joni Mitchell"], ["undo"],
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        // A log with committed frames from another library: copied while its connection is open.
        let other = folder + "/other.db"
        _ = try await AlbumsCLI(database: other)("add", "--title", "Other", "--artist", "Library")
        let db = try Database.openStore(path: other, schemas: [])
        try db.execute("UPDATE album SET title = title || ?", [" (changed)"])
        let wal = try Data(contentsOf: URL(fileURLWithPath: other + "-wal"))
        db.close()
        let foreignPath = folder + "/foreign.db"
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let foreign = try Database(path: foreignPath, configuration: configuration)
        try foreign.execute("CREATE TABLE album (title TEXT)")
        foreign.close()
        return DamageGenerator(
            original: try Data(contentsOf: URL(fileURLWithPath: path)),
            wal: wal,
            foreign: try Data(contentsOf: URL(fileURLWithPath: foreignPath))
        )
    }

    /// Whether a damaged copy records an older schema version than the original (a flipped bit in
    /// `commandstore_schema`): opening it then runs the newer migrations, a designed write. Read
    /// from a scratch copy, so the copy under test is not touched.
    static func recordsOlderSchema(_ damage: DamageGenerator.Damage, original: [String: Int], scratch: String) -> Bool {
        guard case .file(let data) = damage.content else { return false }
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
        }
        guard (try? data.write(to: URL(fileURLWithPath: scratch))) != nil, let versions = schemaVersions(scratch) else {
            return false
        }
        return original.contains { identifier, version in (versions[identifier] ?? version) < version }
    }

    static func schemaVersions(_ path: String) -> [String: Int]? {
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        guard let db = try? Database(path: path, configuration: configuration) else { return nil }
        defer { db.close() }
        guard let rows = try? db.fetchAll("SELECT identifier, version FROM commandstore_schema") else { return nil }
        var versions: [String: Int] = [:]
        for row in rows {
            guard let identifier = try? row.decode(String.self, at: 0), let version = try? row.decode(Int.self, at: 1)
            else { return nil }
            versions[identifier] = version
        }
        return versions
    }

    @Test func everyCommandOnEveryDamagedCopyWorksOrFailsClearly() async throws {
        let work = try ChildProcess.makeFolder("damage-cli")
        defer { try? FileManager.default.removeItem(at: work) }
        let generator = try await Self.makeLibrary(at: work.path + "/original.db", in: work.path)
        var damages = generator.damages(bitFlips: Self.isLong ? 1500 : 120, seed: Self.seed)
        // A sanitized `albums` takes about a second to start: every eighth copy there.
        if Self.isSanitized { damages = damages.enumerated().filter { $0.offset % 8 == 0 }.map(\.element) }
        let currentVersions = try #require(Self.schemaVersions(work.path + "/original.db"))
        var runs = 0
        var failures = 0
        var upgraded = 0
        for damage in damages {
            let olderSchema = Self.recordsOlderSchema(
                damage, original: currentVersions, scratch: work.path + "/probe.db")
            let folder = work.path + "/" + damage.name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/library.db"
            let cli = AlbumsCLI(database: path)
            try damage.write(at: path)
            let context = "seed \(Self.seed), \(damage.name)"
            for arguments in Self.readCommands {
                let before = try DamagedStoreTests.contents(of: folder)
                let result = try await cli.run(arguments)
                runs += 1
                AlbumsCLI.expectNoCrash(result, "\(context), \(arguments)")
                if result.status != 0 {
                    failures += 1
                    AlbumsCLI.expectClearFailure(result, "\(context), \(arguments)")
                }
                // A reading command never changes the file, with one designed exception: a file that
                // records an older schema is migrated, and must then be consistent.
                let after = try DamagedStoreTests.contents(of: folder)
                if after != before, olderSchema, result.status == 0 {
                    upgraded += 1
                    let db = try Database.openStore(path: path, schemas: [])
                    defer { db.close() }
                    #expect(throws: Never.self, "\(context), \(arguments): migrated into a damaged library") {
                        try db.checkIntegrity()
                    }
                } else {
                    #expect(after == before, "\(context), \(arguments): the files changed")
                }
            }
            for arguments in Self.writeCommands {
                let before = try DamagedStoreTests.contents(of: folder)
                let result = try await cli.run(arguments)
                runs += 1
                AlbumsCLI.expectNoCrash(result, "\(context), \(arguments)")
                if result.status == 0 {
                    // It worked: the library must be consistent and still readable.
                    let db = try Database.openStore(path: path, schemas: [])
                    defer { db.close() }
                    #expect(throws: Never.self, "\(context), \(arguments) worked on a damaged library") {
                        try db.checkIntegrity()
                    }
                    #expect(try await cli("list").status == 0, "\(context), \(arguments): list fails after it")
                } else {
                    failures += 1
                    AlbumsCLI.expectClearFailure(result, "\(context), \(arguments)")
                    #expect(
                        try DamagedStoreTests.contents(of: folder) == before,
                        "\(context), \(arguments) failed and changed the files")
                }
            }
        }
        print(
            "DamagedLibraryTests: \(damages.count) damaged copies (seed \(Self.seed)), \(runs) CLI runs, \(failures) refused clearly, \(upgraded) reads migrated an older recorded schema, no crash or hang"
        )
        #expect(damages.count >= (Self.isSanitized ? 20 : 150))
    }
}
