#if PostgreSQL
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An `albums` change on a library on a PostgreSQL server, stopped inside its transaction by the
/// commit gate (`ALBUMS_TEST_COMMIT_GATE`: the change made, the history's header locked, nothing
/// committed), then hit by a fault: the process killed, or its session ended by the server. Nothing
/// of the change is left, the refusal is one line, and the next change commits.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"] != nil
            || ProcessInfo.processInfo.environment["CI"] == "true"))
struct PostgreSQLFaultTests {
    static let albums = ChildProcess.productsFolder.appendingPathComponent("albums").path

    /// A fresh library in a schema of its own, and a gate folder.
    struct Library {
        let schema: PostgreSQLTestSchema
        let folder: URL
        let gate: CrossProcessUndoTests.Gate

        init() async throws {
            let base = try #require(
                ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"],
                "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)")
            schema = try PostgreSQLTestSchema(base: base)
            folder = try ChildProcess.makeFolder("postgresql-fault")
            gate = try CrossProcessUndoTests.Gate(in: folder)
            let made = try await run(["init"])
            try #require(made.status == 0, "\(made)")
        }

        func run(_ arguments: [String], url: String? = nil, gated: Bool = false) async throws -> ChildProcess.Result {
            try await ChildProcess.run(
                PostgreSQLFaultTests.albums, ["--db", url ?? schema.url] + arguments,
                environment: gated ? gate.environment : [:])
        }

        /// The albums and the history as another client reads them.
        func state() async throws -> (albums: String, history: String) {
            (try await run(["export"]).output, try await run(["--json", "history"]).output)
        }

        /// The process that waits at the gate.
        func waitingProcess() async throws -> pid_t {
            try await gate.waitUntilSomeoneWaits()
            let names = try FileManager.default.contentsOfDirectory(atPath: gate.folder.path)
            let waiting = try #require(names.first { $0.hasPrefix("waiting-") })
            return try #require(pid_t(waiting.dropFirst("waiting-".count)))
        }

        func remove() {
            schema.drop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func aChangeKilledInsideItsTransactionLeavesNothingAndTheNextCommits() async throws {
        let library = try await Library()
        defer { library.remove() }
        let before = try await library.state()
        let held = Task { try await library.run(["add", "--title", "Held", "--artist", "Nobody"], gated: true) }
        kill(try await library.waitingProcess(), SIGKILL)
        let killed = try await held.value
        #expect(killed.wasSignaled && killed.status == SIGKILL, "\(killed)")

        // The server rolled the transaction back as the connection closed, and its lock went with it.
        let added = try await library.run(["add", "--title", "Next", "--artist", "Somebody"])
        #expect(added.status == 0 && added.output.contains("Next"), "\(added)")
        let after = try await library.state()
        #expect(!after.albums.contains("Held") && after.albums.contains("Next"), "\(after.albums)")
        #expect(try await library.run(["undo"]).status == 0)
        #expect(try await library.state().albums == before.albums)
    }

    @Test func aChangeWhoseSessionTheServerEndsIsRefusedInOneLineAndTheNextCommits() async throws {
        let library = try await Library()
        defer { library.remove() }
        let before = try await library.state()
        // Its session carries a name of its own, so the test ends that session and no other.
        let name = "held_\(library.schema.name)"
        let held = Task {
            try await library.run(
                ["delete", "1"], url: library.schema.url + "&application_name=\(name)", gated: true)
        }
        _ = try await library.waitingProcess()
        try PostgreSQLTestSchema.run(
            library.schema.base,
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = '\(name)'")
        library.gate.open()
        let refused = try await held.value
        #expect(refused.status == 1 && !refused.wasSignaled && refused.output.isEmpty, "\(refused)")
        let lines = refused.error.split(separator: "\n")
        #expect(lines.count == 1 && refused.error.contains("connection"), "\(refused)")
        #expect(try await library.state() == before)

        let deleted = try await library.run(["delete", "1"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try await library.state().albums != before.albums)
    }
}
#endif
