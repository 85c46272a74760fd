import Locking
import NIOCore

/// The server's open connections and the requests in progress, so that a stop lets those
/// requests finish (and only then closes the idle connections), and so that the connections
/// never take more descriptors than ``DescriptorBudget`` leaves them.
final class ConnectionTracker: Sendable {
    /// What becomes of a new connection.
    enum Admission: Equatable {
        /// Under the limit: served.
        case serve
        /// Over it: answered 503 (``ConnectionRefusalHandler``), then closed.
        case refuse
        /// Over it, with as many refusals already waiting as allowed: closed at once.
        case drop
    }

    private struct State {
        var connections: [ObjectIdentifier: any Channel] = [:]
        var refusing = 0
        var requestsInProgress = 0
        var isStopping = false
    }

    private let state = LockedState(State())
    /// The most connections served at once.
    let limit: Int
    /// The most refused connections waiting for their answer to be read.
    let refusalLimit: Int

    init(limit: Int, refusalLimit: Int) {
        self.limit = limit
        self.refusalLimit = refusalLimit
    }

    /// Counts a new connection in, as served or refused, until it closes.
    func admit(_ channel: any Channel) -> Admission {
        let key = ObjectIdentifier(channel)
        let admission = state.withLock { state -> Admission in
            if state.connections.count < limit {
                state.connections[key] = channel
                return .serve
            }
            guard state.refusing < refusalLimit else { return .drop }
            state.refusing += 1
            return .refuse
        }
        switch admission {
        case .serve:
            channel.closeFuture.whenComplete { [weak self] _ in
                _ = self?.state.withLock { $0.connections.removeValue(forKey: key) }
            }
        case .refuse:
            channel.closeFuture.whenComplete { [weak self] _ in self?.state.withLock { $0.refusing -= 1 } }
        case .drop:
            break
        }
        return admission
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
