import AlbumLibrary
import Foundation
import TestSupport
import Testing

@testable import AlbumsApp

@Suite struct CommandLineParserTests {
    private func parse(_ words: String...) throws(UsageError) -> CommandLineRequest {
        try CommandLineParser.parse(["albums"] + words)
    }

    private func command(_ words: String...) throws(UsageError) -> AlbumsAction {
        try CommandLineParser.parse(["albums"] + words).action
    }

    /// The text an output action prints (help, version, completion script), or "" for another action.
    private func output(_ words: String...) throws(UsageError) -> String {
        guard case .output(let text) = try CommandLineParser.parse(["albums"] + words).action else { return "" }
        return text
    }

    @Test func noCommandIsInteractive() throws {
        #expect(try parse().action == .interactive)
        #expect(try parse("--db", "/tmp/x.sqlite").options.databasePath == "/tmp/x.sqlite")
    }

    @Test func parsesGlobalOptionsBeforeAndAfterTheCommand() throws {
        let before = try parse("--db", "/tmp/a", "--json", "--launch-report", "list")
        #expect(before.action == .list(query: nil, order: .position))
        #expect(before.options == GlobalOptions(databasePath: "/tmp/a", json: true, launchReport: true))
        let after = try parse("list", "--json", "--db=/tmp/b")
        #expect(after.options == GlobalOptions(databasePath: "/tmp/b", json: true))
    }

    @Test func parsesEveryCommand() throws {
        #expect(try command("list") == .list(query: nil, order: .position))
        #expect(
            try command("list", "--search", "sun", "--sort", "year") == .list(query: .containing("sun"), order: .year))
        #expect(try command("list", "-s", "Björk") == .list(query: .containing("Björk"), order: .position))
        #expect(try command("show", "2") == .show(.position(2)))
        #expect(try command("show", "Best of Bowie") == .show(.title("Best of Bowie")))
        let id = UUID()
        #expect(try command("show", id.uuidString) == .show(.id(id)))
        #expect(try command("delete", "1") == .delete(.position(1)))
        #expect(try command("move", "1", "3") == .move(.position(1), to: 3))
        #expect(try command("undo") == .undo(count: 1))
        #expect(try command("undo", "3") == .undo(count: 3))
        #expect(try command("redo", "2") == .redo(count: 2))
        #expect(try command("history") == .history(limit: nil))
        #expect(try command("history", "--limit", "5") == .history(limit: 5))
        #expect(try command("history", "-n", "2") == .history(limit: 2))
        #expect(try command("import", "-") == .importAlbums(source: "-", replace: false))
        #expect(try command("import", "--replace", "b.json") == .importAlbums(source: "b.json", replace: true))
        #expect(try command("import", "--", "-x.json") == .importAlbums(source: "-x.json", replace: false))
        #expect(try command("export") == .export(destination: nil))
        #expect(try command("export", "out.json") == .export(destination: "out.json"))
        #expect(try command("info") == .info)
    }

    @Test func addsUsageShowsTitleAndArtistAsRequiredAndEditsAsOptional() throws {
        let add = try output("add", "--help")
        let addUsage = try #require(add.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        #expect(addUsage.contains("albums add --title <title> --artist <artist> [--genre <genre>]"), "\(addUsage)")
        let edit = try output("edit", "--help")
        let editUsage = try #require(edit.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        #expect(editUsage.contains("[--title <title>] [--artist <artist>] [--genre <genre>]"), "\(editUsage)")
        // Both missing: the first is named, as the usage writes it.
        #expect(throws: UsageError("add needs --title TITLE", command: "add")) {
            try CommandLineParser.parse(["albums", "add"])
        }
    }

    @Test func helpVersionAndCompletionScriptsAreOutput() throws {
        #expect(try output("--help").contains("USAGE: albums"))
        #expect(try output("-h").contains("SUBCOMMANDS:"))
        #expect(try output("help").contains("USAGE: albums"))
        #expect(try output("help", "add").contains("USAGE: albums add"))
        #expect(try output("add", "--help").contains("--title <title>"))
        #expect(try output("--version") == "albums 1.0.0")
        for shell in ["bash", "zsh", "fish"] {
            let script = try output("--generate-completion-script", shell)
            #expect(script.contains("albums"), "\(shell)")
            #expect(script.contains("history"), "\(shell)")
        }
    }

    @Test func shortOptions() throws {
        let request = try parse("-j", "add", "-t", "Blue", "-a", "Joni Mitchell", "-g", "Folk", "-y", "1971")
        #expect(request.options.json)
        guard case .add(let album, nil) = request.action else {
            Issue.record("not an add: \(request)")
            return
        }
        #expect([album.title, album.artist, album.genre] == ["Blue", "Joni Mitchell", "Folk"])
        #expect(album.year == 1971)
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

    @Test func aNegativeNumberIsATitleOrArtistLikeAnyOther() throws {
        guard case .add(let album, _) = try command("add", "--title", "-1", "--artist", "-2") else {
            Issue.record("not an add")
            return
        }
        #expect(album.title == "-1" && album.artist == "-2")
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
                == .edit(.position(2), changes: AlbumChanges(genre: "", year: 1993)))
        // An empty year or cover removes it.
        #expect(
            try command("edit", "2", "--year", "", "--cover", " ")
                == .edit(.position(2), changes: AlbumChanges(removesYear: true, removesCoverURL: true)))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["list", "--verbose"], "unknown option '--verbose' for list"),
        (["info", "extra"], "unexpected argument 'extra' for info"),
        (["list", "foo:bar"], "bad query: unknown field ‘foo’"),
        (["show"], "show needs ALBUM"),
        (["show", "0"], "ALBUM 0 is not a position"),
        (["show", "-1"], "-1 is not a position"),
        (["show", ""], "ALBUM must be a position, an album id or a title"),
        (["delete"], "delete needs ALBUM"),
        (["move", "1", "x"], "TO 'x' is not a whole number"),
        (["list", "--sort", "colour"], "unknown sort key 'colour' (known: position, title, artist, year)"),
        (["list", "--search", ""], "--search needs some text"),
        (["history", "--limit", "0"], "--limit 0 must be at least 1"),
        (["history", "--limit"], "--limit needs a value"),
        (["history", "-n", "-1"], "-n -1 must be at least 1"),
        (["add", "--title", "T", "--artist", "A", "--at", "-2"], "--at -2 is not a position (positions start at 1)"),
        (["add", "--title", "T", "--artist", "A", "-y", "-5"], "-y -5 is out of range (1...9999)"),
        (["show", "1", "2"], "unexpected argument '2' for show"),
        (["move", "1"], "move needs TO"),
        (["undo", "0"], "COUNT 0 must be at least 1"),
        (["undo", "many"], "COUNT 'many' is not a whole number"),
        (["undo", "-2"], "COUNT -2 must be at least 1"),
        (["redo", "--all"], "unknown option '--all' for redo"),
        (["undo", "1", "2"], "unexpected argument '2' for undo"),
        (["add", "--artist", "A"], "add needs --title TITLE"),
        (["add", "--title", "T"], "add needs --artist ARTIST"),
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
        (["--db"], "--db needs a value"),
        (["--db", "", "list"], "--db needs a file path"),
        (["--json=yes", "list"], "--json takes no value"),
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

    /// An argument the message names is named whole, whatever quotes it holds: ArgumentParser's
    /// message quotes it with apostrophes, and the argument's own apostrophe must not end it.
    @Test(arguments: [
        (["show", "Best of Bowie", "It's My Life"], "unexpected argument 'It's My Life' for show"),
        (["show", "1", "Rock 'n' Roll"], "unexpected argument 'Rock 'n' Roll' for show"),
        (["show", "1", "Say \"Hi\""], "unexpected argument 'Say \"Hi\"' for show"),
        (["show", "1", "‘Heroes’"], "unexpected argument '‘Heroes’' for show"),
        (["info", "Don't say \"no\""], "unexpected argument 'Don't say \"no\"' for info"),
        (["info", "'"], "unexpected argument ''' for info"),
        (["show", "1", "It's", "Rock 'n' Roll"], "unexpected argument 'It's' for show"),
        (["show", "1", "It", "It's"], "unexpected argument 'It' for show"),
        (["list", "--it's"], "unknown option '--it's' for list"),
        (["list", "--it's=\"x\""], "unknown option '--it's' for list"),
        (["--rock'n'roll"], "unknown option '--rock'n'roll'"),
        (["it's"], "unknown command 'it's'"),
    ])
    func namesTheWholeArgumentWhateverItsQuotes(words: [String], expected: String) {
        do {
            let request = try CommandLineParser.parse(["albums"] + words)
            Issue.record("parsed \(words) as \(request)")
        } catch {
            #expect(error.message == expected)
            #expect(UsageError.exitCode == 2)
        }
    }

    @Test func everyCommandHasHelp() throws {
        let overview = try output("--help")
        for name in CommandLineParser.commandNames {
            #expect(overview.contains(name), "\(name)")
            guard name != "help" else { continue }
            #expect(try output(name, "--help").contains("USAGE: albums \(name)"), "\(name)")
        }
    }

    /// The quick path returns exactly what ArgumentParser returns, on every line it accepts.
    @Test func theQuickPathAgreesWithArgumentParser() throws {
        let vocabulary = [
            "list", "show", "delete", "move", "undo", "redo", "history", "info", "export", "add", "help", "1", "2",
            "0", "-1", "x", "Best of Bowie", "", "--db", "/tmp/a.sqlite", "--json", "-j", "--launch-report", "--",
            "-", "--help", "out.json", "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
        ]
        var generator = SplitMix64(seed: 15)
        var quick = 0
        for _ in 0..<3000 {
            let length = Int.random(in: 0...5, using: &generator)
            let words = (0..<length).map { _ in vocabulary.randomElement(using: &generator)! }
            guard let request = QuickParse.request(words) else { continue }
            quick += 1
            do {
                #expect(try CommandLineParser.parseWithArgumentParser(words) == request, "\(words)")
            } catch {
                Issue.record("\(words): the quick path gave \(request), ArgumentParser \(error)")
            }
        }
        #expect(quick > 300, "only \(quick) lines took the quick path")
    }
}
