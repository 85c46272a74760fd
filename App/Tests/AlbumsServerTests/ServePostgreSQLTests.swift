#if PostgreSQL
import Foundation
import NIOCore
import TestSupport
import Testing

/// One library on a PostgreSQL server (`COMMANDKIT_POSTGRES_URL`, over TCP, a schema of its own),
/// shared by separate processes: `albums serve`, whose pages watch it live, and two `albums`
/// clients with different authors that change it, undo their own changes and time-travel.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"] != nil
            || ProcessInfo.processInfo.environment["CI"] == "true"))
struct ServePostgreSQLTests {
    private struct Listed: Decodable {
        var title: String
        var year: Int?
    }

    @Test func twoAuthorsChangeUndoMineTimeTravelAndAPageWatchesLive() async throws {
        let base = try #require(
            ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"], "COMMANDKIT_POSTGRES_URL names no server")
        let schema = try PostgreSQLTestSchema(base: base)
        defer { schema.drop() }
        let server = try await ServerProcess(database: schema.url)
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the stream opened") { stream.text.contains("event: revision\ndata: {\"revision\":0}") }

        // Each client's commit reaches the page through the server's LISTEN, not a poll of a file.
        func change(_ author: String, _ arguments: String..., revision: Int) async throws -> String {
            let result = try await server.cli(["--author", author] + arguments)
            try #require(result.status == 0, "\(author) \(arguments): \(result.output)")
            try await eventually("revision \(revision) reached the page") {
                stream.text.contains("event: revision\ndata: {\"revision\":\(revision)}")
            }
            return result.output
        }
        _ = try await change("ada", "add", "--title", "Blue Train", "--artist", "John Coltrane", revision: 1)
        _ = try await change("grace", "edit", "blue train", "--year", "1957", revision: 2)
        _ = try await change("ada", "delete", "It's My Life", revision: 3)
        _ = try await change("grace", "move", "Blue Train", "1", revision: 4)

        // Ada takes back her delete only: grace's move and edit stay.
        let undone = try await change("ada", "undo", "--mine", revision: 5)
        #expect(undone == "Undid your Delete “It's My Life” (step 3), keeping the later changes\n", "\(undone)")
        var listed = try await list(server)
        #expect(listed.first?.title == "Blue Train" && listed.first?.year == 1957)
        #expect(listed.map(\.title).contains("It's My Life") && listed.count == 6)

        // Grace goes back to the state after the first step, then to the newest again.
        let back = try await change("grace", "undo", "--to", "1", revision: 6)
        #expect(back.hasSuffix("Now at step 1\n"), "\(back)")
        listed = try await list(server)
        #expect(listed.count == 6 && listed.last?.title == "Blue Train" && listed.last?.year == nil)
        let forth = try await change("ada", "undo", "--to", "5", revision: 7)
        #expect(forth.hasSuffix("Now at step 5\n"), "\(forth)")
        #expect(try await list(server).first?.year == 1957)

        // The server's own view agrees, authors included.
        let state = try await RawHTTP.send("GET", "/api/state", port: server.port)
        let body = String(decoding: state.body, as: UTF8.self)
        #expect(state.status == 200 && body.contains("\"revision\":7"), "\(body)")
        let history = try await server.cli(["--json", "history"])
        #expect(history.output.contains("\"author\" : \"ada\"") && history.output.contains("\"author\" : \"grace\""))
    }

    /// The server's session to PostgreSQL is ended from outside (`pg_terminate_backend`, as an
    /// administrator or a failover would). The change that meets the dead session is refused in one
    /// line, committing nothing, unless the server's idle look reconnected first; the next change
    /// connects again and is committed, and the page goes on following.
    @Test func aConnectionEndedByTheServerIsMadeAgainByTheNextChange() async throws {
        let base = try #require(ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"])
        let schema = try PostgreSQLTestSchema(base: base)
        defer { schema.drop() }
        // Its sessions carry a name of their own, so the test ends the server's and no other.
        let name = "serve_\(schema.name)"
        let server = try await ServerProcess(database: schema.url + "&application_name=\(name)")
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the stream opened") { stream.text.contains("event: revision\ndata: {\"revision\":0}") }

        try PostgreSQLTestSchema.run(
            base, "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = '\(name)'")
        try await expectTheNextChangesFollow(server, stream, the: "cut", revision: 0)
    }

    /// After the server's session ended (`the` names how): the change that meets it is refused in
    /// one line (500) or succeeds (the idle look reconnected first); the next one commits; the page
    /// sees its revision (after `revision`, the last one before the fault) and the list both.
    private func expectTheNextChangesFollow(
        _ server: ServerProcess, _ stream: RawHTTP.Collector, the fault: String, revision: Int
    ) async throws {
        let first = try await RawHTTP.change(
            "POST", "/api/albums", port: server.port, json: ["title": "Met the \(fault)", "artist": "Someone"])
        let firstBody = String(decoding: first.body, as: UTF8.self)
        #expect(
            first.status == 201 || (first.status == 500 && !firstBody.contains("\\n")), "\(first.status) \(firstBody)")
        let second = try await RawHTTP.change(
            "POST", "/api/albums", port: server.port, json: ["title": "After the \(fault)", "artist": "Someone"])
        #expect(second.status == 201, "\(String(decoding: second.body, as: UTF8.self))")
        let latest = revision + (first.status == 201 ? 2 : 1)
        try await eventually("the page saw the change after the \(fault)") {
            stream.text.contains("event: revision\ndata: {\"revision\":\(latest)}")
        }
        let listed = try await server.cli(["list"])
        #expect(listed.output.contains("After the \(fault)"), "\(listed.output)")
        #expect(listed.output.contains("Met the \(fault)") == (first.status == 201), "\(listed.output)")
    }

    /// The PostgreSQL server restarts under `albums serve` (a server of the test's own: the other
    /// tests' sessions go on). The change that meets the ended session is refused in one line,
    /// committing nothing, unless the server's idle look reconnected first; the next change
    /// connects again and commits; the page, still open, follows the commits made after the restart.
    @Test func aRestartOfThePostgreSQLServerIsFollowedByTheNextChange() async throws {
        try await PostgreSQLPrivateServer.with { try await restart($0) }
    }

    private func restart(_ postgres: PostgreSQLPrivateServer) async throws {
        let schema = try PostgreSQLTestSchema(base: postgres.url)
        let server = try await ServerProcess(database: schema.url)
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the stream opened") { stream.text.contains("event: revision\ndata: {\"revision\":0}") }
        let before = try await RawHTTP.change(
            "POST", "/api/albums", port: server.port, json: ["title": "Before the restart", "artist": "Someone"])
        #expect(before.status == 201)

        try await postgres.restart()
        try await expectTheNextChangesFollow(server, stream, the: "restart", revision: 1)
        #expect(try await server.cli(["list"]).output.contains("Before the restart"))
    }

    @Test func aServerThatRefusesGetsOneLineAndAnExitCode() async throws {
        let base = try #require(ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"])
        let schema = try PostgreSQLTestSchema(base: base)
        defer { schema.drop() }
        // No library in the schema yet: refused, nothing made.
        let missing = try await ServerProcess.run(["--db", schema.url, "list"])
        #expect(missing.status == 1 && missing.output.contains("holds no albums library"), "\(missing)")
        // A password is never printed, not even when the login fails.
        var components = try #require(URLComponents(string: base))
        components.user = "nobody"
        components.password = "s3cret-word"
        let refused = try await ServerProcess.run(["--db", components.string ?? "", "list"])
        #expect(refused.status == 1 && !refused.output.contains("s3cret-word"), "\(refused)")
        #expect(refused.output.split(separator: "\n").count == 1, "\(refused)")
        // A library of a newer program: refused before anything is read or written.
        #expect(try await ServerProcess.run(["init", schema.url]).status == 0)
        try PostgreSQLTestSchema.run(
            schema.url, "UPDATE commandkit_schema SET version = 99 WHERE identifier = 'albums'")
        let newer = try await ServerProcess.run(["--db", schema.url, "list"])
        #expect(newer.status == 1 && newer.output.contains("newer than this program"), "\(newer)")
    }

    private func list(_ server: ServerProcess) async throws -> [Listed] {
        let result = try await server.cli(["--json", "list"])
        try #require(result.status == 0, "\(result.output)")
        return try JSONDecoder().decode([Listed].self, from: Data(result.output.utf8))
    }
}
#endif
