import Locking

/// Whether the shutdown has escalated, shared by the invoker, the deadline timer and the step in
/// progress: the first escalation wins, and each registered handler runs once.
final class EscalationLatch: Sendable {
    private struct State {
        var escalation: ShutdownEscalation?
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    private let state = LockedState(State())

    var escalation: ShutdownEscalation? { state.withLock { $0.escalation } }
    var isEscalated: Bool { escalation != nil }

    /// Escalates; returns `false` when the shutdown had escalated already.
    @discardableResult
    func escalate(_ reason: ShutdownEscalation.Reason, at time: Duration) -> Bool {
        let handlers: [@Sendable () -> Void]? = state.withLock { state in
            guard state.escalation == nil else { return nil }
            state.escalation = ShutdownEscalation(reason: reason, time: time)
            defer { state.handlers.removeAll() }
            return Array(state.handlers.values)
        }
        guard let handlers else { return false }
        for handler in handlers { handler() }
        return true
    }

    /// Runs `handler` on escalation (at once if it has happened); returns a token for ``remove(_:)``.
    func onEscalation(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let token: Int? = state.withLock { state in
            guard state.escalation == nil else { return nil }
            defer { state.nextToken += 1 }
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
        if token == nil { handler() }
        return token
    }

    func remove(_ token: Int?) {
        guard let token else { return }
        state.withLock { _ = $0.handlers.removeValue(forKey: token) }
    }
}
