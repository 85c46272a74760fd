import Foundation
import NIOCore
import TestSupport
import Testing

/// The event stream's hardening (issue 23): a heartbeat the page can watch for, and a client that
/// stops reading dropped before it holds the server's memory. The heartbeat's interval comes
/// from `ALBUMS_TEST_EVENT_HEARTBEAT_MS`, so nothing here waits the real 15 seconds.
@Suite("albums serve: the event stream's heartbeat and its slow readers")
struct ServeEventStreamTests {
    static let heartbeatVariable = "ALBUMS_TEST_EVENT_HEARTBEAT_MS"

    @Test("a stream opens with the heartbeat's interval and then gets one every interval, with the revision")
    func heartbeatArrives() async throws {
        let server = try await ServerProcess(environment: [Self.heartbeatVariable: "40"])
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        let beat = "event: heartbeat\ndata: {\"interval\":40,\"revision\":0}\n\n"
        try await eventually("the opening names the interval") { stream.text.contains(beat) }
        try await eventually("more heartbeats follow") { stream.text.components(separatedBy: beat).count > 4 }

        // The heartbeat repeats the revision: a page that missed a revision event catches up.
        let added = try await server.cli("--json", "add", "--title", "Beat", "--artist", "Someone")
        let revision = try #require(
            (try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])?["revision"] as? Int)
        try await eventually("a heartbeat with the new revision") {
            stream.text.contains("event: heartbeat\ndata: {\"interval\":40,\"revision\":\(revision)}\n\n")
        }
    }

    @Test("without the test setting the heartbeat is every 15 seconds")
    func defaultInterval() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the opening") { stream.text.contains("event: revision\ndata: {\"revision\":0}\n\n") }
        #expect(stream.text.contains("event: heartbeat\ndata: {\"interval\":15000,\"revision\":0}\n\n"))
    }

    @Test("a client that never reads is dropped once its small buffer is full; the server goes on serving")
    func slowReaderIsDropped() async throws {
        // A heartbeat every millisecond fills the stream's buffers within seconds.
        let server = try await ServerProcess(environment: [Self.heartbeatVariable: "1"])
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port), reads: false)
        defer { channel.close(promise: nil) }
        // A second stream that reads stays.
        let (healthy, healthyStream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { healthy.close(promise: nil) }

        try await eventually("the server dropped the stream that does not read") {
            server.standardError.contains("dropped an event stream whose client stopped reading")
        }
        // What the client finds when it reads at last: what the buffers held, then the end.
        try await RawHTTP.startReading(channel)
        try await eventually("the dropped stream ended") { stream.isEnded }
        #expect(stream.received.count < 256 * 1024, "\(stream.received.count) bytes were held for it")
        #expect(stream.text.hasPrefix("HTTP/1.1 200 OK"))

        let state = try await RawHTTP.send("GET", "/api/state", port: server.port)
        #expect(state.status == 200)
        let before = healthyStream.received.count
        try await eventually("the reading stream still gets heartbeats") { healthyStream.received.count > before }
        #expect(!healthyStream.isEnded)
        #expect(server.standardError.components(separatedBy: "dropped an event stream").count == 2, "one dropped")
    }

    @Test("past --max-streams a stream is refused with 503 and one line; a closed stream makes room")
    func streamLimit() async throws {
        let server = try await ServerProcess(arguments: ["--max-streams", "2"])
        defer { Task { await server.finish() } }
        let request = RawHTTP.requestBytes("GET", "/api/events", port: server.port)
        let (first, firstStream) = try await RawHTTP.open(port: server.port, bytes: request)
        defer { first.close(promise: nil) }
        let (second, secondStream) = try await RawHTTP.open(port: server.port, bytes: request)
        defer { second.close(promise: nil) }
        for stream in [firstStream, secondStream] {
            try await eventually("the stream opened") { stream.text.contains("event: revision") }
        }

        let refused = try await RawHTTP.send("GET", "/api/events", port: server.port)
        #expect(refused.status == 503)
        #expect((refused.json["error"] as? [String: Any])?["code"] as? String == "too-many-streams")
        #expect(
            refused.errorMessage
                == "2 pages already follow this library (albums serve --max-streams); close one, or try again later")
        #expect(refused.header("Retry-After") == "5")
        // The rest of the API is not limited, and the open streams go on.
        #expect(try await RawHTTP.send("GET", "/api/state", port: server.port).status == 200)
        #expect(!firstStream.isEnded && !secondStream.isEnded)

        try await first.close()
        // The server forgets a stream when it sees the connection close: look until it has. A
        // stream that opens stays open, so each look reads only the status line.
        let status = try await poll(every: .milliseconds(20)) { () async throws -> String? in
            let (channel, stream) = try await RawHTTP.open(port: server.port, bytes: request)
            defer { channel.close(promise: nil) }
            try await eventually("an answer") { stream.text.contains("\r\n\r\n") }
            return stream.text.hasPrefix("HTTP/1.1 503") ? nil : String(stream.text.prefix(15))
        }
        #expect(status == "HTTP/1.1 200 OK", "no room after a stream closed")
    }
}
