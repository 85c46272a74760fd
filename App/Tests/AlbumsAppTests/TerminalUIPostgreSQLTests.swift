#if PostgreSQL
import Foundation
import TestSupport
import Testing

/// The terminal UI on a library on a PostgreSQL server (`COMMANDKIT_POSTGRES_URL`, a schema of its
/// own): it follows another client's commits (LISTEN/NOTIFY), and its own changes are the server's.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"] != nil
            || ProcessInfo.processInfo.environment["CI"] == "true"))
struct TerminalUIPostgreSQLTests {
    @Test func followsAnotherClientAndItsChangesReachTheServer() async throws {
        let base = try #require(ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"])
        let schema = try PostgreSQLTestSchema(base: base)
        defer { schema.drop() }
        let tmux = TmuxSession()
        defer { tmux.kill() }
        try await tmux.start(database: schema.url)
        try await tmux.waitForScreen("the five albums") { $0.contains("albums · 5 albums") }

        // Another client, as another author: the screen shows its album, and its step to undo.
        var grace = AlbumsProcess(database: schema.url)
        grace.environment["ALBUMS_AUTHOR"] = "grace"
        let added = try await grace("add", "--title", "Live From Elsewhere", "--artist", "Grace")
        #expect(added.status == 0, "\(added)")
        try await tmux.waitForScreen("grace's album") {
            $0.contains("albums · 6 albums") && $0.contains("Undo Add “Live From Elsewhere”")
        }

        // The screen's own change is committed on the server: the other client sees it.
        try await tmux.send("d")
        try await tmux.waitForScreen("the delete") { $0.contains("Undo Delete “Best of Bowie”") }
        let listed = try await grace.run(["--db", schema.url, "list"])
        #expect(
            !listed.output.contains("Best of Bowie") && listed.output.split(separator: "\n").count == 5, "\(listed)")
        try await tmux.send("q")
        #expect(try await tmux.waitUntilExit() == "0")
    }
}
#endif
