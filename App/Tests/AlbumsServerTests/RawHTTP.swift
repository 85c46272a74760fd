import Foundation
import Locking
import NIOCore
import NIOPosix

/// A tiny HTTP/1.1 client over a NIO socket: it writes the request's bytes exactly as the test
/// gives them (any Host, any Origin, a body of any size) and reads the answer until the server
/// closes, so nothing between the test and the server adds or rewrites a header.
enum RawHTTP {
    struct Response: CustomStringConvertible {
        var status: Int
        var headers: [(String, String)]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }

        /// `error.message` of a JSON error.
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

        var description: String { "HTTP \(status) \(text)" }
    }

    /// Collects every byte the server sends; the stream's end closes it.
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let bytes = LockedState<[UInt8]>([])
        private let ended = LockedState(false)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            ended.withLock { $0 = true }
        }

        var received: [UInt8] { bytes.withLock { $0 } }
        var text: String { String(decoding: received, as: UTF8.self) }
        var isEnded: Bool { ended.withLock { $0 } }
    }

    /// Connects to the server on 127.0.0.1 and writes `request`'s bytes. With `reads` false the
    /// client reads nothing (and offers the server only a small receive buffer) until the test
    /// calls ``startReading(_:)``: a client that stopped reading.
    static func open(port: Int, bytes: [UInt8], reads: Bool = true) async throws -> (any Channel, Collector) {
        let collector = Collector()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if !reads {
            bootstrap = bootstrap.channelOption(.autoRead, value: false)
                .channelOption(.socketOption(.so_rcvbuf), value: 4096)
        }
        let channel =
            try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        return (channel, collector)
    }

    /// Lets a client opened with `reads: false` read from now on.
    static func startReading(_ channel: any Channel) async throws {
        try await channel.setOption(.autoRead, value: true).get()
        channel.read()
    }

    /// The bytes of a request with `Connection: close`; `Host` is `127.0.0.1:PORT` unless given.
    static func requestBytes(
        _ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
    ) -> [UInt8] {
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = "127.0.0.1:\(port)" }
        headers["Connection"] = "close"
        if !body.isEmpty || method == "POST" || method == "PATCH" { headers["Content-Length"] = "\(body.count)" }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Sends one request and returns the whole answer.
    static func send(
        _ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: [UInt8] = []
    ) async throws -> Response {
        let (channel, collector) = try await open(
            port: port, bytes: requestBytes(method, path, port: port, headers: headers, body: body))
        try await channel.closeFuture.get()
        return try parse(collector.received)
    }

    /// A change as the page sends it: JSON, with the same-origin header.
    static func change(
        _ method: String, _ path: String, port: Int, json: [String: Any] = [:], headers: [String: String] = [:]
    ) async throws -> Response {
        var headers = headers
        headers["X-Albums-Request"] = headers["X-Albums-Request"] ?? "1"
        headers["Content-Type"] = "application/json"
        let body = try JSONSerialization.data(withJSONObject: json)
        return try await send(method, path, port: port, headers: headers, body: Array(body))
    }

    static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw ServerError("no HTTP head in \(String(decoding: bytes, as: UTF8.self))")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw ServerError("bad status line \(head[0])")
        }
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Response(status: status, headers: headers, body: Data(bytes[(end + separator.count)...]))
    }
}
