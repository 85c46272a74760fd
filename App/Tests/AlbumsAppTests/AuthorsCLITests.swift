import Foundation
import Testing

/// Every step records who made it: `--author NAME`, else `ALBUMS_AUTHOR`, else login@host;
/// `history` shows the authors and `--author NAME` shows one author's steps.
@Suite struct AuthorsCLITests {
    private func makeLibrary() throws -> (folder: URL, cli: AlbumsProcess) {
        let folder = try AlbumsProcess.makeFolder()
        var cli = AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path)
        cli.environment["ALBUMS_AUTHOR"] = nil
        return (folder, cli)
    }

    @Test func historyShowsWhoMadeEachStep() async throws {
        let (folder, cli) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await cli("--author", "ada", "add", "-t", "One", "-a", "A").status == 0)
        var grace = cli
        grace.environment["ALBUMS_AUTHOR"] = "grace"
        #expect(try await grace("add", "-t", "Two", "-a", "A").status == 0)
        var tester = cli
        tester.environment["USER"] = "tester"
        let added = try await tester("--json", "add", "-t", "Three", "-a", "A")
        let result = try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any]
        let defaultAuthor = try #require(result?["author"] as? String)
        #expect(defaultAuthor.hasPrefix("tester@") && defaultAuthor.count > "tester@".count, "\(added)")

        let history = try await cli("history")
        let lines = history.output.split(separator: "\n")
        #expect(lines.count == 4, "\(history)")
        #expect(lines[1].contains("ada") && lines[1].hasSuffix("Add “One”"), "\(history)")
        #expect(lines[2].contains("grace") && lines[2].hasSuffix("Add “Two”"), "\(history)")
        #expect(lines[3].contains(defaultAuthor) && lines[3].hasSuffix("Add “Three”"), "\(history)")

        let mine = try await cli("history", "--author", "grace")
        #expect(mine.status == 0 && mine.output.split(separator: "\n").count == 1, "\(mine)")
        #expect(mine.output.contains("Add “Two”"), "\(mine)")
        let json = try await cli("--json", "history")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let steps = object?["steps"] as? [[String: Any]] ?? []
        #expect(steps.compactMap { $0["author"] as? String } == ["ada", "grace", defaultAuthor], "\(json)")
        // The tree names them too, branches included.
        #expect(try await cli("undo").status == 0)
        #expect(try await cli("--author", "ada", "add", "-t", "Four", "-a", "A").status == 0)
        let tree = try await cli("history", "--tree")
        let four = tree.output.split(separator: "\n").first { $0.hasSuffix("Add “Four”") }
        #expect(tree.output.contains(defaultAuthor) && four?.contains(" ada ") == true, "\(tree)")
    }

    @Test func aBadNameIsRefusedAndChangesNothing() async throws {
        let (folder, cli) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await cli("list").status == 0)
        let before = try await cli("--json", "history").output
        for (arguments, message) in [
            (["--author", "", "add", "-t", "X", "-a", "Y"], "--author needs a name"),
            (["--author", "a\tb", "add", "-t", "X", "-a", "Y"], "cannot hold control characters"),
            (["--author", String(repeating: "n", count: 65), "add", "-t", "X", "-a", "Y"], "at most 64 characters"),
        ] {
            let run = try await cli.run(["--db", cli.database] + arguments)
            #expect(run.status == 2 && run.error.contains(message), "\(arguments): \(run)")
        }
        var environment = cli
        environment.environment["ALBUMS_AUTHOR"] = "  "
        let run = try await environment("add", "-t", "X", "-a", "Y")
        #expect(run.status == 2 && run.error.contains("ALBUMS_AUTHOR needs a name"), "\(run)")
        // The terminal UI's undo scope: `mine` or `all`, nothing else.
        var scope = cli
        scope.environment["ALBUMS_UNDO"] = "yours"
        let refused = try await scope.run(["--db", cli.database])
        #expect(
            refused.status == 2 && refused.error.contains("ALBUMS_UNDO must be “mine” or “all”, not “yours”"),
            "\(refused)")
        #expect(try await cli("--json", "history").output == before)
    }
}
