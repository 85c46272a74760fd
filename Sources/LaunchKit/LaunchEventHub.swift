import Locking
import Synchronization

/// Hands launch events to every subscribed stream. With no subscriber, emitting costs one atomic
/// load, so the scheduler's overhead does not grow for launches nobody watches.
final class LaunchEventHub: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<LaunchEvent>.Continuation] = [:]
        var nextToken = 0
        var isFinished = false
    }

    private let subscribers = Atomic<Int>(0)
    private let state = LockedState(State())

    /// Whether anyone listens (checked before building an event).
    var isActive: Bool { subscribers.load(ordering: .relaxed) > 0 }

    /// A stream of every event from now on; finished at once if the hub has finished.
    func subscribe() -> AsyncStream<LaunchEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LaunchEvent.self, bufferingPolicy: .unbounded)
        let token: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            defer { state.nextToken += 1 }
            state.continuations[state.nextToken] = continuation
            subscribers.add(1, ordering: .relaxed)
            return state.nextToken
        }
        guard let token else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(token) }
        return stream
    }

    func emit(_ event: @autoclosure () -> LaunchEvent) {
        guard isActive else { return }
        let event = event()
        // Yielded under the lock, so every subscriber sees the events in one order.
        state.withLock { state in
            for continuation in state.continuations.values { continuation.yield(event) }
        }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        subscribers.store(0, ordering: .relaxed)
        for continuation in continuations { continuation.finish() }
    }

    private func unsubscribe(_ token: Int) {
        state.withLock { state in
            if state.continuations.removeValue(forKey: token) != nil { subscribers.subtract(1, ordering: .relaxed) }
        }
    }
}
