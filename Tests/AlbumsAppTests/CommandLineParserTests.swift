import AlbumLibrary
import AlbumsApp
import Foundation
import Testing

@Suite struct CommandLineParserTests {
    private func parse(_ words: String...) throws(UsageError) -> CommandLineRequest {
        try CommandLineParser.parse(["albums"] + words)
    }

    private func command(_ words: String...) throws(UsageError) -> AlbumsCommand {
        try CommandLineParser.parse(["albums"] + words).command
    }

    @Test func noCommandIsInteractive() throws {
        #expect(try parse().command == .interactive)
        #expect(try parse("--db", "/tmp/x.sqlite").options.databasePath == "/tmp/x.sqlite")
    }

    @Test func parsesGlobalOptionsBeforeAndAfterTheCommand() throws {
        let before = try parse("--db", "/tmp/a", "--json", "--launch-report", "list")
        #expect(before.command == .list)
        #expect(before.options == GlobalOptions(databasePath: "/tmp/a", json: true, launchReport: true))
        let after = try parse("list", "--json", "--db=/tmp/b")
        #expect(after.options == GlobalOptions(databasePath: "/tmp/b", json: true))
    }

    @Test func parsesEveryCommand() throws {
        #expect(try command("list") == .list)
        #expect(try command("show", "2") == .show(position: 2))
        #expect(try command("delete", "1") == .delete(position: 1))
        #expect(try command("move", "1", "3") == .move(from: 1, to: 3))
        #expect(try command("undo") == .undo(count: 1))
        #expect(try command("undo", "3") == .undo(count: 3))
        #expect(try command("redo", "2") == .redo(count: 2))
        #expect(try command("history") == .history)
        #expect(try command("import", "-") == .importAlbums(source: "-"))
        #expect(try command("import", "--", "-x.json") == .importAlbums(source: "-x.json"))
        #expect(try command("export") == .export(destination: nil))
        #expect(try command("export", "out.json") == .export(destination: "out.json"))
        #expect(try command("help") == .help(topic: nil))
        #expect(try command("help", "add") == .help(topic: "add"))
        #expect(try command("--help") == .help(topic: nil))
        #expect(try command("add", "--help") == .help(topic: "add"))
        #expect(try command("--version") == .version)
    }

    @Test func parsesAddWithAllFields() throws {
        let parsed = try command(
            "add", "--title", "Blue Train", "--artist=John Coltrane", "--genre", "Jazz", "--year", "1957",
            "--cover", "https://example.com/c.jpg", "--at", "2"
        )
        guard case .add(let album, let at) = parsed else {
            Issue.record("not an add: \(parsed)")
            return
        }
        #expect(album.title == "Blue Train")
        #expect(album.artist == "John Coltrane")
        #expect(album.genre == "Jazz")
        #expect(album.year == 1957)
        #expect(album.coverURL?.absoluteString == "https://example.com/c.jpg")
        #expect(at == 2)
    }

    @Test func titleMayLookLikeAnOption() throws {
        guard case .add(let album, _) = try command("add", "--title", "--help", "--artist", "A") else {
            Issue.record("not an add")
            return
        }
        #expect(album.title == "--help")
    }

    @Test func parsesEditChanges() throws {
        #expect(
            try command("edit", "2", "--year", "1993", "--genre", "")
                == .edit(position: 2, changes: AlbumChanges(genre: "", year: 1993)))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["list", "--verbose"], "unknown option '--verbose' for list"),
        (["list", "extra"], "unexpected argument 'extra' for list"),
        (["show"], "show needs POSITION"),
        (["show", "x"], "POSITION 'x' is not a whole number"),
        (["show", "0"], "POSITION 0 is not a position"),
        (["show", "-1"], "POSITION -1 is not a position"),
        (["delete"], "delete needs POSITION"),
        (["delete", "1", "2"], "unexpected argument '2' for delete"),
        (["move", "1"], "move needs TO"),
        (["undo", "0"], "COUNT 0 must be at least 1"),
        (["undo", "many"], "COUNT 'many' is not a whole number"),
        (["undo", "-2"], "COUNT -2 must be at least 1"),
        (["redo", "--all"], "unknown option '--all' for redo"),
        (["undo", "1", "2"], "unexpected argument '2' for undo"),
        (["add", "--artist", "A"], "add needs --title"),
        (["add", "--title", "T"], "add needs --artist"),
        (["add", "--title", "", "--artist", "A"], "title must not be empty"),
        (["add", "--title", "T", "--artist", "A", "--year", "nineteen"], "is not a whole number"),
        (["add", "--title", "T", "--artist", "A", "--year", "0"], "out of range"),
        (["add", "--title", "T", "--artist", "A", "--cover", "x.jpg"], "not an absolute URL"),
        (["add", "--title", "T", "--artist", "A", "--at", "0"], "--at 0 is not a position"),
        (["add", "--title", "T", "--title", "U", "--artist", "A"], "--title given twice"),
        (["add", "--title"], "--title needs a value"),
        (["edit", "1"], "edit needs at least one of"),
        (["edit", "1", "--at", "2"], "unknown option '--at' for edit"),
        (["import"], "import needs a FILE"),
        (["import", ""], "import needs a file path, not an empty argument"),
        (["export", ""], "export needs a file path, not an empty argument"),
        (["help", "nope"], "unknown command 'nope'"),
        (["--db"], "--db needs a value"),
        (["--db", "", "list"], "--db needs a file path"),
        (["--json=yes", "list"], "--json takes no value"),
        (["--version", "list"], "--version takes no command"),
    ])
    func rejectsBadCommandLines(words: [String], expected: String) {
        do {
            let request = try CommandLineParser.parse(["albums"] + words)
            Issue.record("parsed \(words) as \(request)")
        } catch {
            #expect(error.message.contains(expected), "message: \(error.message)")
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("albums: "))
            #expect(UsageError.exitCode == 2)
        }
    }

    @Test func everyCommandHasHelp() {
        for name in CommandLineParser.commandNames {
            #expect(HelpText.help(for: name)?.contains("USAGE: albums") == true, "\(name)")
            #expect(HelpText.overview.contains(name), "\(name)")
        }
        #expect(HelpText.help(for: "nope") == nil)
    }
}
