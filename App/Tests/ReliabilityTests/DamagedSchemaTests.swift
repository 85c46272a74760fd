import AlbumLibrary
import Foundation
import SQLiteDatabase
import Testing

/// Issue 27, U2/U3: a library whose stored schema is damaged or inconsistent, said in the
/// program's words. Bit flips in the schema gave SQLite's own `storage error: unrecognized option
/// "content_vowid"`, `… no column named seavch_text` and `SQL logic error`; a file recording a
/// schema version lower than its tables gave `duplicate column name: search_text`; a search
/// index in another format `invalid fts5 file format … - run 'rebuild'`. Each is now one line
/// saying the library file is damaged or inconsistent and what to do, exit 1, the files unchanged.
@Suite struct DamagedSchemaTests {
    /// One damaged library: how it is made from a sound one, what SQLite said, and which commands
    /// meet the damage (the others may work: they never read that part of the file).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Rewrites the sound file's bytes at `path` (with the files closed).
        var damage: @Sendable (String) throws -> Void
        /// Words of SQLite's that the message keeps, in parentheses, so the cause can be looked up.
        var reason: String
        var refusing: [[String]]
        var testDescription: String { name }
    }

    static let writes: [[String]] = [
        ["add", "--title", "After", "--artist", "Damage"], ["edit", "1", "--title", "Edited"], ["delete", "1"],
    ]
    static let everything: [[String]] = [["list"], ["history"], ["export"], ["show", "1"]] + writes

    /// Replaces every `old` in the file's bytes with `new`, of the same length (the stored schema's
    /// text, as a flipped bit changes it).
    static func replacing(_ old: String, with new: String) -> @Sendable (String) throws -> Void {
        { path in
            let url = URL(fileURLWithPath: path)
            var bytes = try Data(contentsOf: url)
            let (from, to) = (Data(old.utf8), Data(new.utf8))
            precondition(from.count == to.count, "a replacement must keep the length")
            var found = 0
            while let range = bytes.firstRange(of: from) {
                bytes.replaceSubrange(range, with: to)
                found += 1
            }
            guard found > 0 else { throw CocoaError(.fileReadCorruptFile) }
            try bytes.write(to: url)
        }
    }

    /// Runs one statement on the closed library through SQLite, as another program would.
    static func writing(_ sql: String) -> @Sendable (String) throws -> Void {
        { path in
            let db = try Database(path: path)
            try db.execute(sql)
            db.close()
        }
    }

    static let cases: [Case] = [
        Case(
            name: "content_rowid flipped to content_vowid in the search index's declaration",
            damage: replacing("content_rowid", with: "content_vowid"),
            reason: "unrecognized option: \"content_vowid\"", refusing: writes),
        Case(
            name: "search_text flipped to seavch_text in the search triggers",
            damage: replacing(
                "INSERT INTO album_search (rowid, search_text)", with: "INSERT INTO album_search (rowid, seavch_text)"),
            reason: "no column named seavch_text", refusing: [writes[0], writes[1]]),
        Case(
            name: "a comma flipped to a form feed in a search shadow table's declaration",
            damage: replacing("(segid, term, pgno", with: "(segid, term\u{0C} pgno"),
            reason: "SQL logic error", refusing: writes),
        Case(
            name: "the search index's format version changed",
            damage: writing("UPDATE album_search_config SET v = 3 WHERE k = 'version'"),
            reason: "invalid fts5 file format (found 3, expected 4)", refusing: writes),
        Case(
            name: "the recorded albums schema version set lower than its tables",
            damage: writing("UPDATE commandstore_schema SET version = 2 WHERE identifier = 'albums'"),
            reason: "duplicate column name: search_text", refusing: everything),
    ]

    @Test(arguments: cases)
    func aDamagedOrInconsistentSchemaIsSaidInTheProgramsWordsAndChangesNothing(_ damage: Case) async throws {
        let (folder, cli) = try await HostileEnvironmentTests.makeLibrary("damaged-schema", count: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        try damage.damage(cli.database)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cli.database + suffix) }
        let before = try FolderSnapshot(folder.path)
        for arguments in damage.refusing {
            let result = try await cli.run(arguments)
            HostileEnvironmentTests.expectOneLineFailure(
                result, containing: "library.db is ", "\(damage.name): \(arguments)")
            #expect(
                result.error.contains(" is damaged or inconsistent: ") || result.error.contains(" is inconsistent: "),
                "\(damage.name): \(arguments): \(result)")
            #expect(result.error.contains(damage.reason), "\(damage.name): \(arguments): \(result)")
            #expect(result.error.contains(LibraryError.damageRemedy), "\(damage.name): \(arguments): \(result)")
            #expect(!result.error.contains("storage error"), "\(damage.name): \(arguments): \(result)")
            #expect(!result.error.contains("run 'rebuild'"), "\(damage.name): \(arguments): \(result)")
            #expect(try FolderSnapshot(folder.path) == before, "\(damage.name): \(arguments) changed the files")
        }
    }

    /// A library cut by one byte (the last page short): whatever a command meets, it works, or
    /// refuses in the program's words and changes nothing.
    @Test func aLibraryCutByOneByteWorksOrIsRefusedAsDamaged() async throws {
        let (folder, cli) = try await HostileEnvironmentTests.makeLibrary("cut-by-one", count: 300)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = URL(fileURLWithPath: cli.database)
        try Data(contentsOf: url).dropLast().write(to: url)
        for arguments in Self.everything {
            let before = try FolderSnapshot(folder.path)
            let result = try await cli.run(arguments)
            #expect(!result.timedOut && !result.wasSignaled, "\(arguments): \(result)")
            guard result.status != 0 else { continue }
            HostileEnvironmentTests.expectOneLineFailure(result, containing: "library.db is ", "\(arguments)")
            #expect(result.error.contains(LibraryError.damageRemedy), "\(arguments): \(result)")
            #expect(try FolderSnapshot(folder.path) == before, "\(arguments) changed the files")
        }
    }
}
