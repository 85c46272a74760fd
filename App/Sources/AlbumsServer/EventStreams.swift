import Locking
import Logging
import NIOCore
import NIOHTTP1

/// The open `GET /api/events` streams (Server-Sent Events): each gets `event: revision` with the
/// library's new revision whenever it changes, from this server or any other process, and
/// `event: heartbeat` every ``heartbeatInterval``.
///
/// The heartbeat is an event rather than an SSE comment because a page's `EventSource` never
/// sees comments: with the interval and the revision in it, the page notices a stream that went
/// quiet (a proxy or a sleeping laptop holding a dead connection), reconnects, and catches up on a
/// revision it missed. A proxy sees traffic either way.
///
/// A stream's client that stops reading cannot hold the server's memory: each stream's socket
/// buffer is small and at most ``bufferLimit`` bytes wait in the server behind it; a stream over
/// that is dropped (its client's `EventSource` reconnects when it reads again). At most
/// ``limit`` streams are open at once: each holds a connection and a descriptor, so the stream
/// past the limit is refused (503) before its response starts, rather than the server running
/// out of descriptors for everyone.
final class EventStreams: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        /// Streams admitted by ``reserve()`` whose channel has not joined yet.
        var reserved = 0
        var isClosed = false
        /// The revision last sent, which each heartbeat repeats.
        var revision = 0
    }

    private let state = LockedState(State())
    /// How often each stream gets a heartbeat.
    let heartbeatInterval: Duration
    /// The most streams open (or admitted) at once.
    let limit: Int
    private let logger: Logger

    /// The most bytes a stream may have waiting in the server (behind its socket's buffer)
    /// before it is dropped: hundreds of events, so only a client that stopped reading reaches it.
    static let bufferLimit = 16 * 1024
    /// The socket send buffer each stream asks for (the system doubles it): events are small,
    /// and what waits in the system's buffer for a client that does not read is memory too.
    static let socketBufferBytes = 8 * 1024

    init(heartbeatInterval: Duration, limit: Int, logger: Logger) {
        self.heartbeatInterval = heartbeatInterval
        self.limit = limit
        self.logger = logger
    }

    /// The first bytes of a stream: how soon a client reconnects, the heartbeat (so the client
    /// learns the interval at once), and the revision now.
    func opening(revision: Int) -> [UInt8] {
        state.withLock { $0.revision = max($0.revision, revision) }
        return Array("retry: 1000\n\n".utf8) + heartbeat(revision: revision) + Self.event(revision: revision)
    }

    private static func event(revision: Int, reopened: Bool = false) -> [UInt8] {
        let data = reopened ? "{\"revision\":\(revision),\"reopened\":true}" : "{\"revision\":\(revision)}"
        return Array("event: revision\ndata: \(data)\n\n".utf8)
    }

    /// `event: heartbeat` with the interval in milliseconds and the revision last sent.
    private func heartbeat(revision: Int) -> [UInt8] {
        let milliseconds = heartbeatInterval / .milliseconds(1)
        return Array("event: heartbeat\ndata: {\"interval\":\(Int(milliseconds)),\"revision\":\(revision)}\n\n".utf8)
    }

    /// Admits one more stream, whose channel ``add(_:)`` then brings: `false` when ``limit``
    /// streams are open or admitted already. Deciding here, before the response starts, lets the
    /// refusal be a whole 503 response.
    func reserve() -> Bool {
        state.withLock { state in
            guard state.channels.count + state.reserved < limit else { return false }
            state.reserved += 1
            return true
        }
    }

    /// Adds a channel admitted by ``reserve()`` whose response head and opening bytes are
    /// written; it leaves the set when it closes. A channel that arrives after ``closeAll()`` is
    /// closed at once.
    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let isClosed = state.withLock { state in
            state.reserved = max(state.reserved - 1, 0)
            if !state.isClosed { state.channels[key] = channel }
            return state.isClosed
        }
        guard !isClosed else {
            Self.finish(channel)
            return
        }
        _ = channel.setOption(
            .writeBufferWaterMark, value: .init(low: Self.bufferLimit / 2, high: Self.bufferLimit))
        _ = channel.setOption(.socketOption(.so_sndbuf), value: Self.socketBufferBytes)
        let interval = TimeAmount.nanoseconds(Int64(heartbeatInterval / .nanoseconds(1)))
        let beats = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) {
            [weak self] _ in
            guard let self else { return }
            self.send(self.heartbeat(revision: self.state.withLock { $0.revision }), to: channel)
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            beats.cancel()
            _ = self?.state.withLock { $0.channels.removeValue(forKey: key) }
        }
    }

    var count: Int { state.withLock { $0.channels.count } }

    /// Sends the revision to every stream; `reopened` says the library file was reopened (another
    /// program replaced it or wrote over it), so the pages reload whatever the revision.
    func publish(revision: Int, reopened: Bool = false) {
        let bytes = Self.event(revision: revision, reopened: reopened)
        let channels = state.withLock { state in
            state.revision = max(state.revision, revision)
            return Array(state.channels.values)
        }
        for channel in channels { send(bytes, to: channel) }
    }

    /// Writes on the channel's event loop, unless more than ``bufferLimit`` bytes already wait
    /// there: then the client has stopped reading, and the stream is dropped.
    private func send(_ bytes: [UInt8], to channel: any Channel) {
        channel.eventLoop.execute { [logger] in
            guard channel.isActive else { return }
            guard channel.isWritable else {
                logger.notice("dropped an event stream whose client stopped reading")
                channel.close(promise: nil)
                return
            }
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        }
    }

    /// Ends every stream (the response's end, then the connection) and refuses new ones: the
    /// server is stopping.
    func closeAll() {
        let channels = state.withLock { state in
            state.isClosed = true
            return Array(state.channels.values)
        }
        for channel in channels { Self.finish(channel) }
    }

    private static func finish(_ channel: any Channel) {
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
