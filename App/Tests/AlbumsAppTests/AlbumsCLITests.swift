import AlbumLibrary
import Foundation
import TestSupport
import Testing

/// Black-box tests: each runs the built `albums` binary in separate processes on a temporary library.
@Suite struct AlbumsCLITests {
    private func withLibrary(_ body: (AlbumsProcess, URL) async throws -> Void) async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(AlbumsProcess(database: folder.appendingPathComponent("nested/library.sqlite").path), folder)
    }

    private func titles(_ albums: AlbumsProcess) async throws -> [String] {
        let result = try await albums("--json", "list")
        try #require(result.status == 0, "\(result)")
        let rows = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
        return rows.compactMap { $0["title"] as? String }
    }

    @Test func aReadingCommandOnAMissingLibraryRefusesAndCreatesNothing() async throws {
        try await withLibrary { albums, folder in
            for words in [["list"], ["--json", "show", "1"], ["history"], ["info"], ["export"], []] {
                let result = try await albums.run(["--db", albums.database] + words)
                #expect(result.status == 1, "\(words): \(result)")
                #expect(
                    result.error
                        == "albums: no library at \(albums.database); `albums init \(albums.database)` creates one\n",
                    "\(words)")
            }
            let environment = AlbumsProcess(database: albums.database, environment: ["ALBUMS_DB": albums.database])
            #expect(try await environment.run(["list"]).status == 1)
            // Not even its folder.
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nested").path))
        }
    }

    @Test func initCreatesALibraryWithTheFiveDefaultsOrEmptyAndOnlyWhereThereIsNone() async throws {
        try await withLibrary { albums, folder in
            let created = try await albums.run(["init", albums.database])
            #expect(created.output == "Created a library at \(albums.database) with 5 albums\n", "\(created)")
            #expect(try await titles(albums).count == 5)
            let again = try await albums.run(["--db", albums.database, "init"])
            #expect(again.status == 1, "\(again)")
            #expect(
                again.error
                    == "albums: a library is already at \(albums.database): init creates one only where there is none\n"
            )
            let empty = folder.appendingPathComponent("empty.sqlite").path
            let made = try await albums.run(["--json", "init", "--empty", empty])
            #expect(made.status == 0 && made.output.contains("\"count\" : 0"), "\(made)")
            #expect(try await AlbumsProcess(database: empty)("list").output == "No albums.\n")
            let foreign = folder.appendingPathComponent("notes.txt")
            try Data("notes".utf8).write(to: foreign)
            let refused = try await albums.run(["init", foreign.path])
            #expect(refused.status == 1 && refused.error.contains("is not an albums library"), "\(refused)")
            #expect(try Data(contentsOf: foreign) == Data("notes".utf8))
        }
    }

    @Test func aChangeOnAMissingLibraryCreatesItWithTheFiveDefaultsAndSaysSo() async throws {
        try await withLibrary { albums, folder in
            let result = try await albums("add", "-t", "Blue Train", "-a", "John Coltrane")
            #expect(result.status == 0, "\(result)")
            // Creating a library says where, once: a mistyped --db is seen at once.
            #expect(result.error == "albums: created a new library at \(albums.database)\n")
            #expect(try await albums("add", "-t", "Giant Steps", "-a", "John Coltrane").error.isEmpty)
            #expect(try await titles(albums).count == 7)
        }
    }

    @Test func aNewLibraryListsTheFiveDefaults() async throws {
        try await withLibrary { albums, folder in
            let result = try await albums("list")
            #expect(result.status == 0, "\(result)")
            #expect(result.error.isEmpty)
            let lines = result.output.split(separator: "\n")
            #expect(lines.count == 5)
            #expect(lines[0].contains("1  Best of Bowie"))
            #expect(lines[0].contains("David Bowie"))
            #expect(lines[0].contains("1992"))
            #expect(lines[4].contains("5  American Pie"))
            await #expect(
                try titles(albums) == [
                    "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
                ])
            // Created with its folder, private to the user.
            let folderMode =
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("nested").path)[
                    .posixPermissions] as? Int
            let fileMode = try FileManager.default.attributesOfItem(atPath: albums.database)[.posixPermissions] as? Int
            #expect(folderMode == 0o700)
            #expect(fileMode == 0o600)
        }
    }

    @Test func listWithoutATerminalIsTheDefaultCommand() async throws {
        try await withLibrary { albums, _ in
            let listed = try await albums("list")
            let result = try await albums.run(["--db", albums.database])
            #expect(result.status == 0, "\(result)")
            #expect(result.output == listed.output)
        }
    }

    @Test func deleteThenUndoAndRedoInSeparateProcesses() async throws {
        try await withLibrary { albums, _ in
            let before = try await albums("export").output
            let deleted = try await albums("delete", "1")
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.output == "Deleted “Best of Bowie” (position 1)\n")
            #expect(try await titles(albums).first == "It's My Life")

            let undone = try await albums("undo")
            #expect(undone.status == 0, "\(undone)")
            #expect(undone.output == "Undid Delete “Best of Bowie”\n")
            #expect(try await albums("export").output == before)

            let redone = try await albums("redo")
            #expect(redone.status == 0, "\(redone)")
            #expect(redone.output == "Redid Delete “Best of Bowie”\n")
            #expect(try await titles(albums).count == 4)
            await #expect(!(try titles(albums)).contains("Best of Bowie"))
        }
    }

    @Test func addEditMoveAndUndoSeveralSteps() async throws {
        try await withLibrary { albums, _ in
            let before = try await albums("export").output
            let added = try await albums(
                "add", "--title", "Blue Train", "--artist", "John Coltrane", "--genre", "Jazz", "--year", "1957",
                "--at", "2")
            #expect(added.output == "Added “Blue Train” (position 2)\n", "\(added)")
            let appended = try await albums("add", "--title", "Kind of Blue", "--artist", "Miles Davis")
            #expect(appended.output == "Added “Kind of Blue” (position 7)\n", "\(appended)")
            let edited = try await albums("edit", "2", "--year", "1958", "--title", "Blue Train (Remaster)")
            #expect(edited.output == "Edited “Blue Train (Remaster)” (position 2)\n", "\(edited)")
            let moved = try await albums("move", "1", "7")
            #expect(moved.output == "Moved “Best of Bowie” from position 1 to 7\n", "\(moved)")
            await #expect(
                try titles(albums) == [
                    "Blue Train (Remaster)", "It's My Life", "Nothing Like The Sun", "Staring at the Sun",
                    "American Pie",
                    "Kind of Blue", "Best of Bowie",
                ])
            let shown = try await albums("show", "1")
            #expect(shown.output.contains("Year:     1958"))
            #expect(shown.output.contains("Genre:    Jazz"))

            let undone = try await albums("undo", "4")
            #expect(undone.status == 0, "\(undone)")
            #expect(undone.output.split(separator: "\n").count == 4)
            #expect(try await albums("export").output == before)
        }
    }

    @Test func historyShowsEachStepAndMarksTheCurrentOne() async throws {
        try await withLibrary { albums, _ in
            // Stored to the millisecond and printed to the second: a second's slack on each side.
            let started = Date().addingTimeInterval(-1)
            _ = try await albums("delete", "1")
            _ = try await albums("add", "--title", "Blue Train", "--artist", "John Coltrane")
            _ = try await albums("undo")
            let text = try await albums("history")
            #expect(text.status == 0, "\(text)")
            let lines = text.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix("  0  ") && lines[0].hasSuffix("  Start"))
            #expect(lines[1].hasPrefix("> 1  ") && lines[1].hasSuffix("  Delete “Best of Bowie”"))
            #expect(lines[2].hasPrefix("  2  ") && lines[2].hasSuffix("  Add “Blue Train”  (undone)"))
            // Each step's time, to the second, in the local zone: "2024-05-01 14:03:07".
            let time = lines[1].dropFirst(5).prefix(19)
            #expect(time.count == 19 && time.dropFirst(4).first == "-" && time.dropFirst(10).first == " ", "\(lines)")

            let json = try await albums("--json", "history")
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect(object?["current"] as? Int == 1)
            let steps = object?["steps"] as? [[String: Any]] ?? []
            #expect(steps.compactMap { $0["text"] as? String } == ["Delete “Best of Bowie”", "Add “Blue Train”"])
            #expect(steps.compactMap { $0["done"] as? Bool } == [true, false])
            // ISO 8601 in UTC, between the test's start and now (however slow the machine).
            let times = steps.compactMap { ($0["time"] as? String).flatMap { try? Date($0, strategy: .iso8601) } }
            let now = Date().addingTimeInterval(1)
            #expect(times.count == 2)
            #expect(times.allSatisfy { $0 >= started && $0 <= now }, "\(times), started \(started)")
        }
    }

    @Test func anEmptyYearOrCoverRemovesItAsOneStepThatUndoBringsBack() async throws {
        try await withLibrary { albums, _ in
            #expect(try await albums("edit", "1", "--cover", "https://example.com/bowie.jpg").status == 0)
            let removed = try await albums("edit", "1", "--year", "", "--cover", "")
            #expect(removed.output == "Edited “Best of Bowie” (position 1)\n", "\(removed)")
            let shown = try await albums("show", "1").output
            #expect(shown.contains("Year:     -") && shown.contains("Cover:    -"), "\(shown)")
            #expect(try await albums("undo").output == "Undid Edit “Best of Bowie”\n")
            let back = try await albums("show", "1").output
            #expect(back.contains("Year:     1992") && back.contains("Cover:    https://example.com/bowie.jpg"))
        }
    }

    @Test func exportThenImportRoundTripsAsOneUndoableStep() async throws {
        try await withLibrary { albums, folder in
            _ = try await albums(
                "add", "--title", "Blue Train", "--artist", "John Coltrane", "--cover", "https://example.com/bt.jpg",
                "--year", "1957")
            _ = try await albums("edit", "1", "--genre", "")
            let exported = try await albums("export")
            #expect(exported.status == 0)
            let file = folder.appendingPathComponent("albums.json")
            let written = try await albums("export", file.path)
            #expect(written.output == "Exported 6 albums to \(file.path)\n")
            #expect(try String(contentsOf: file, encoding: .utf8) == exported.output)

            // A second library: empty it, import the file, and the export is the same.
            let other = AlbumsProcess(database: folder.appendingPathComponent("other.sqlite").path)
            for _ in 1...5 { _ = try await other("delete", "1") }
            let imported = try await other("import", file.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.output == "Imported 6 albums (positions 1–6)\n")
            #expect(try await other("export").output == exported.output)

            // One step: a single undo removes every imported album.
            let undone = try await other("undo")
            #expect(undone.output == "Undid Import 6 albums\n", "\(undone)")
            #expect(try await titles(other).isEmpty)

            // Standard input works too.
            let fromInput = try await other("import", "-", input: Data(exported.output.utf8))
            #expect(fromInput.status == 0, "\(fromInput)")
            #expect(try await other("export").output == exported.output)
        }
    }

    @Test func aLargeImportWithoutATerminalPrintsNoProgress() async throws {
        try await withLibrary { albums, folder in
            let many = (1...3000).map { Album(title: "Album \($0)", artist: "Artist", year: 2000) }
            let file = folder.appendingPathComponent("many.json")
            try AlbumFile.encode(many).write(to: file)
            _ = try await albums("list")
            let result = try await albums("import", file.path)
            #expect(result.status == 0, "\(result)")
            #expect(result.output == "Imported 3000 albums (positions 6–3005)\n")
            #expect(result.error.isEmpty)
            #expect(try await albums("show", "3005").output.contains("Album 3000"))
            #expect(try await albums("undo").output == "Undid Import 3000 albums\n")
        }
    }

    @Test func theLibraryPathComesFromTheEnvironment() async throws {
        let folder = try AlbumsProcess.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var viaVariable = AlbumsProcess(database: "")
        viaVariable.environment = ["ALBUMS_DB": folder.appendingPathComponent("env.sqlite").path]
        #expect(try await viaVariable.run(["delete", "1"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("env.sqlite").path))

        var viaXDG = AlbumsProcess(database: "")
        viaXDG.environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path]
        #expect(try await viaXDG.run(["list"]).status == 0)
        #expect(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/albums/library.sqlite").path))

        // A home folder exists (one that does not is refused: EnvironmentPathTests).
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("home"), withIntermediateDirectories: false)
        var viaHome = AlbumsProcess(database: "")
        viaHome.environment = ["HOME": folder.appendingPathComponent("home").path, "XDG_DATA_HOME": ""]
        #expect(try await viaHome.run(["list"]).status == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("home/.local/share/albums/library.sqlite").path))
    }

    @Test func launchReportFollowsTheCommandOnStandardError() async throws {
        try await withLibrary { albums, _ in
            let result = try await albums("--launch-report", "delete", "1")
            #expect(result.status == 0, "\(result)")
            #expect(result.output == "Deleted “Best of Bowie” (position 1)\n")
            for command in ["open-library", "seed-defaults", "restore-current-album"] {
                #expect(result.error.contains(command), "\(result)")
            }
            #expect(result.error.contains("critical path"))
            // Without the option, nothing on stderr.
            #expect(try await albums("list").error.isEmpty)
        }
    }

    @Test func launchReportShowsWhereALaunchFailed() async throws {
        try await withLibrary { _, folder in
            let path = folder.appendingPathComponent("notes.txt").path
            try Data("notes".utf8).write(to: URL(fileURLWithPath: path))
            let result = try await AlbumsProcess(database: path)("--launch-report", "list")
            #expect(result.status == 1)
            #expect(result.error.contains("failed"))
            #expect(result.error.contains("skipped"))
            #expect(result.error.hasSuffix("is not an albums library (not an SQLite database)\n"), "\(result)")
        }
    }

    @Test func helpAndVersionSucceed() async throws {
        try await withLibrary { albums, _ in
            let help = try await albums.run(["--help"])
            #expect(help.status == 0)
            #expect(help.output.contains("USAGE: albums"))
            let commandHelp = try await albums.run(["import", "--help"])
            #expect(
                commandHelp.output.contains(
                    "USAGE: albums import [--replace] [--allow-duplicates] [--dry-run] [<file>]"),
                "\(commandHelp)")
            let version = try await albums.run(["--version"])
            #expect(version.output.hasPrefix("albums "))
            #expect(!FileManager.default.fileExists(atPath: albums.database))
        }
    }

    /// Each bad input: a non-zero exit (2 for usage errors), one line on stderr, nothing on
    /// stdout, and the library exactly as it was (export and history compared).
    @Test(arguments: [
        (["frobnicate"], Int32(2), "unknown command"),
        (["list", "--frobnicate"], 2, "unknown option"),
        (["show"], 2, "needs ALBUM"),
        (["show", "first"], 1, "no album is titled “first”"),
        (["delete", "00000000-0000-0000-0000-000000000000"], 1, "no album has the id 00000000-"),
        (["list", "--sort", "colour"], 2, "unknown sort key 'colour'"),
        (["move", "2", "2"], 1, "is already at position 2: nothing to move"),
        (["edit", "1", "--year", "1992"], 1, "already has those values: nothing to edit"),
        (["edit", "1", "--cover", ""], 1, "already has those values: nothing to edit"),
        (["delete", "0"], 2, "not a position"),
        (["show", "Best of Bowie", "It's My Life"], 2, "unexpected argument 'It's My Life' for show"),
        // Several albums without a terminal to ask on: refused unless --yes.
        (["delete", "Best of Bowie", "It's My Life"], 1, "this would delete 2 albums: add --yes"),
        (["show", "1", "Rock 'n' Roll"], 2, "unexpected argument 'Rock 'n' Roll' for show"),
        (["add", "--title", "T"], 2, "needs --artist"),
        (["add", "--title", "T", "--artist", "A", "--year", "MCMXCII"], 2, "not a whole number"),
        (["add", "--title", "T", "--artist", "A", "--cover", "cover.jpg"], 2, "not an absolute URL"),
        (["edit", "1"], 2, "needs at least one"),
        (["undo", "-1"], 2, "must be at least 1"),
        (["show", "6"], 1, "out of range (1...5)"),
        (["delete", "6"], 1, "out of range"),
        (["edit", "9", "--title", "X"], 1, "out of range"),
        (["move", "1", "6"], 1, "out of range"),
        (["add", "--title", "T", "--artist", "A", "--at", "7"], 1, "out of range"),
        (["undo", "3"], 1, "only 2 can be undone"),
        (["undo", "1000000"], 1, "cannot undo 1000000 steps: only 2 can be undone"),
        (["redo"], 1, "nothing to redo"),
        (["redo", "1000000"], 1, "nothing to redo"),
        (["import", "/nonexistent/albums.json"], 1, "cannot import /nonexistent/albums.json: no such file"),
    ])
    func badInputChangesNothing(arguments: [String], status: Int32, message: String) async throws {
        try await withLibrary { albums, _ in
            // Two steps done, none to redo, five albums: the history must not change either.
            _ = try await albums("add", "--title", "Setup", "--artist", "A")
            _ = try await albums("delete", "6")
            let before = try await albums.snapshot()
            let result = try await albums.run(["--db", albums.database] + arguments)
            #expect(result.status == status, "\(result)")
            #expect(result.output.isEmpty, "\(result)")
            #expect(result.error.hasPrefix("albums: "), "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(result.error.filter { $0 == "\n" }.count == 1, "\(result)")
            #expect(try await albums.snapshot() == before)
        }
    }

    @Test func undoOnANewLibraryHasNothingToUndo() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("list")
            let before = try await albums.snapshot()
            let result = try await albums("undo")
            #expect(result.status == 1, "\(result)")
            #expect(result.error == "albums: nothing to undo\n")
            #expect(try await albums.snapshot() == before)
        }
    }

    @Test func undoAndRedoOfMoreStepsThanThereAreChangeNothing() async throws {
        try await withLibrary { albums, _ in
            _ = try await albums("delete", "1")
            let before = try await albums.snapshot()
            let undo = try await albums("undo", "2")
            #expect(undo.status == 1)
            #expect(undo.error.contains("nothing to undo") || undo.error.contains("only 1"), "\(undo)")
            #expect(try await albums.snapshot() == before)
            _ = try await albums("undo")
            let afterUndo = try await albums.snapshot()
            let redo = try await albums("redo", "3")
            #expect(redo.status == 1, "\(redo)")
            #expect(try await albums.snapshot() == afterUndo)
        }
    }

    /// Malformed import files: non-zero exit, a message naming the problem, nothing imported.
    @Test(arguments: [
        ("not json at all", "not valid JSON"),
        ("{\"title\": \"T\"}", "expected a JSON array of albums"),
        ("[]", "no albums to import"),
        ("[{\"title\": \"T\", \"artist\": \"A\"}, {\"title\": \"U\"}]", "album 2: field \"artist\": missing"),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"year\": \"1992\"}]", "album 1: field \"year\""),
        ("[{\"title\": \"T\", \"artist\": \"A\", \"colour\": \"red\"}]", "album 1: field \"colour\": unknown field"),
    ])
    func malformedImportFilesChangeNothing(contents: String, message: String) async throws {
        try await withLibrary { albums, folder in
            let file = folder.appendingPathComponent("bad.json")
            try Data(contents.utf8).write(to: file)
            _ = try await albums("list")
            let before = try await albums.snapshot()
            let result = try await albums("import", file.path)
            #expect(result.status == 1, "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(result.error.contains(file.path), "\(result)")
            #expect(try await albums.snapshot() == before)
        }
    }

    @Test func importingAnIDAlreadyInTheLibraryChangesNothing() async throws {
        try await withLibrary { albums, folder in
            let file = folder.appendingPathComponent("mine.json")
            _ = try await albums("export", file.path)
            // The same ids with other titles: not duplicates, so the ids are what is refused.
            let exported = try String(contentsOf: file, encoding: .utf8)
            try exported.replacingOccurrences(of: "\"title\" : \"", with: "\"title\" : \"Other ").write(
                to: file, atomically: true, encoding: .utf8)
            #expect(try String(contentsOf: file, encoding: .utf8).contains("Other Best of Bowie"))
            let before = try await albums.snapshot()
            let result = try await albums("import", file.path)
            #expect(result.status == 1, "\(result)")
            #expect(result.error.contains("album 1: id"), "\(result)")
            #expect(try await albums.snapshot() == before)
        }
    }

    /// A --db path that is not an albums library: one line, non-zero exit, the file's bytes unchanged.
    @Test(arguments: ["text", "sqlite", "truncated"])
    func aFileThatIsNotALibraryIsLeftUntouched(kind: String) async throws {
        try await withLibrary { _, folder in
            let path = folder.appendingPathComponent("foreign-\(kind)").path
            switch kind {
            case "text":
                try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: path))
            case "sqlite":
                let made = Process()
                made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                made.arguments = [
                    "python3", "-c",
                    "import sqlite3; c = sqlite3.connect('\(path)'); c.execute('create table notes (t text)'); c.execute(\"insert into notes values ('x')\"); c.commit()",
                ]
                let exit = try await ProcessExit.run(made, timeout: Patience.childProcess)
                try #require(!exit.timedOut && made.terminationStatus == 0)
            default:
                try Data("SQLite format 3\0".utf8 + Data(repeating: 7, count: 40)).write(to: URL(fileURLWithPath: path))
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let albums = AlbumsProcess(database: path)
            for arguments in [["list"], ["delete", "1"]] {
                let result = try await albums.run(["--db", path] + arguments)
                #expect(result.status == 1, "\(result)")
                #expect(result.error.contains("not an albums library"), "\(result)")
                #expect(result.error.filter { $0 == "\n" }.count == 1)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func aFolderIsNotALibrary() async throws {
        try await withLibrary { _, folder in
            let result = try await AlbumsProcess(database: folder.path)("list")
            #expect(result.status == 1, "\(result)")
            #expect(
                result.error
                    == "albums: \(folder.path) is a directory, not an albums library; nothing was opened or changed\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test func controlCharactersInFieldsNeverReachTheTerminal() async throws {
        try await withLibrary { albums, _ in
            let added = try await albums("add", "--title", "Evil\u{1B}[2J\u{07}Title", "--artist", "A\nB")
            #expect(added.status == 0, "\(added)")
            #expect(!added.output.contains("\u{1B}"))
            let list = try await albums("list")
            #expect(!list.output.contains("\u{1B}"))
            #expect(list.output.contains("Evil␛[2J␇Title"))
            #expect(list.output.split(separator: "\n").count == 6)
            // JSON keeps the exact value (escaped by JSON itself).
            let json = try await albums("--json", "show", "6")
            #expect(json.output.contains("\\u001b[2J"))
        }
    }
}
