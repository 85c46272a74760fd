import Locking
import NIOCore
import NIOHTTP1

/// The open `GET /api/events` streams (Server-Sent Events): each gets `event: revision` with the
/// library's new revision whenever it changes, from this server or any other process.
final class EventStreams: Sendable {
    private let channels = LockedState<[ObjectIdentifier: any Channel]>([:])
    private let closed = LockedState(false)

    /// The first bytes of a stream: how soon a client reconnects, and the revision now.
    static func opening(revision: Int) -> [UInt8] {
        Array("retry: 1000\n\n".utf8) + event(revision: revision)
    }

    private static func event(revision: Int, reopened: Bool = false) -> [UInt8] {
        let data = reopened ? "{\"revision\":\(revision),\"reopened\":true}" : "{\"revision\":\(revision)}"
        return Array("event: revision\ndata: \(data)\n\n".utf8)
    }

    /// Adds a channel whose response head and opening bytes are written; it leaves the set when
    /// it closes. A channel that arrives after ``closeAll()`` is closed at once.
    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let isClosed = closed.withLock { $0 }
        guard !isClosed else {
            Self.finish(channel)
            return
        }
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    var count: Int { channels.withLock { $0.count } }

    /// Sends the revision to every stream; `reopened` says the library file was reopened (another
    /// program replaced it or wrote over it), so the pages reload whatever the revision.
    func publish(revision: Int, reopened: Bool = false) {
        let bytes = Self.event(revision: revision, reopened: reopened)
        for channel in channels.withLock({ Array($0.values) }) {
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        }
    }

    /// Ends every stream (the response's end, then the connection) and refuses new ones: the
    /// server is stopping.
    func closeAll() {
        closed.withLock { $0 = true }
        for channel in channels.withLock({ Array($0.values) }) { Self.finish(channel) }
    }

    private static func finish(_ channel: any Channel) {
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
