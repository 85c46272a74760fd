import Locking
import NIOCore

/// The server's open connections and the requests in progress, so that a stop lets those
/// requests finish (and only then closes the idle connections).
final class ConnectionTracker: Sendable {
    private struct State {
        var connections: [ObjectIdentifier: any Channel] = [:]
        var requestsInProgress = 0
        var isStopping = false
    }

    private let state = LockedState(State())

    func opened(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        state.withLock { $0.connections[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLock { $0.connections.removeValue(forKey: key) }
        }
    }

    func requestStarted() { state.withLock { $0.requestsInProgress += 1 } }
    func requestEnded() { state.withLock { $0.requestsInProgress -= 1 } }

    var requestsInProgress: Int { state.withLock { $0.requestsInProgress } }
    var isStopping: Bool { state.withLock { $0.isStopping } }

    /// From now on each response closes its connection.
    func beginStopping() { state.withLock { $0.isStopping = true } }

    /// Closes every connection still open.
    func closeAll() {
        for channel in state.withLock({ Array($0.connections.values) }) { channel.close(promise: nil) }
    }
}
