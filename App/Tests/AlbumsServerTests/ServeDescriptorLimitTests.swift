import Foundation
import NIOCore
import TestSupport
import Testing

/// The server under a small descriptor limit (`ulimit -n 128`): Dispatch traps when the process
/// runs out of descriptors, so connections past the server's budget are refused (503) or closed,
/// and the server goes on serving once they leave. Without the budget, 100 event streams under
/// `ulimit -n 64` ended `albums serve` with SIGILL.
@Suite("albums serve: connections under the descriptor limit")
struct ServeDescriptorLimitTests {
    /// 128 descriptors less the 64 reserved and the 16 kept for refusals (`DescriptorBudget`).
    static let descriptors = 128
    static let connections = 48

    @Test("past the budget a connection gets 503 and one line; a flood does not end the server; it serves again after")
    func connectionsPastTheBudgetAreRefused() async throws {
        let server = try await ServerProcess(
            arguments: ["--max-streams", "1000"], descriptorLimit: Self.descriptors)
        defer { Task { await server.finish() } }
        let port = server.port
        try await eventually("the warning that --max-streams cannot be reached") {
            server.standardError.contains(
                "the descriptor limit (\(Self.descriptors)) allows \(Self.connections) connections, fewer than --max-streams 1000"
            )
        }

        // Every connection the budget allows, each an open event stream.
        var streams: [(any Channel, RawHTTP.Collector)] = []
        defer { streams.forEach { $0.0.close(promise: nil) } }
        for _ in 0..<Self.connections {
            streams.append(
                try await RawHTTP.open(port: port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: port)))
        }
        for (_, stream) in streams {
            try await eventually("each stream opens") { stream.text.contains("event: revision") }
        }

        // One more is answered, not left hanging or reset.
        let refused = try await RawHTTP.send("GET", "/api/state", port: port)
        #expect(refused.status == 503)
        let error = try #require(refused.json["error"] as? [String: Any])
        #expect(error["code"] as? String == "too-many-connections")
        #expect(
            error["message"] as? String
                == "the server already holds \(Self.connections) connections, as many as its descriptor limit allows; try again later"
        )
        #expect(refused.header("retry-after") == "5")

        // A flood past the refusals' own budget: each is answered or closed; none ends the server.
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<80 {
                group.addTask { (try? await RawHTTP.send("GET", "/api/state", port: port))?.status ?? 0 }
            }
            for try await status in group {
                #expect(status == 503 || status == 0, "a connection past the budget was served: \(status)")
            }
        }
        #expect(server.process.isRunning, "stderr: \(server.standardError)")
        for (_, stream) in streams {
            #expect(!stream.isEnded, "an admitted stream was closed by the flood")
        }

        // The streams leave; the server serves again, and stops cleanly.
        streams.forEach { $0.0.close(promise: nil) }
        streams.removeAll()
        let servedAgain = try await poll(every: .milliseconds(20)) {
            (try? await RawHTTP.send("GET", "/api/state", port: port))?.status == 200 ? true : nil
        }
        #expect(servedAgain == true, "the server never served again")
        #expect(await server.stop() == 0, "stderr: \(server.standardError)")
    }
}
