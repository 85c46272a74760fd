import Synchronization

/// Delivers change events of one history to any number of `AsyncStream`s.
///
/// `Sendable` because a stream's termination handler runs on any thread: the continuations
/// are guarded by a `Mutex`, and `AsyncStream.Continuation` is itself `Sendable`.
final class ChangeBroadcaster: Sendable {
    private struct Subscribers: ~Copyable {
        var next = 0
        var continuations: [Int: AsyncStream<UndoChange>.Continuation] = [:]
    }

    private let subscribers = Mutex(Subscribers())

    func makeStream() -> AsyncStream<UndoChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: UndoChange.self, bufferingPolicy: .unbounded)
        let id = subscribers.withLock { subscribers in
            let id = subscribers.next
            subscribers.next += 1
            subscribers.continuations[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ change: UndoChange) {
        let continuations = subscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(change) }
    }

    func finish() {
        let continuations = subscribers.withLock { subscribers in
            defer { subscribers.continuations.removeAll() }
            return Array(subscribers.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// Everything that watches one history (an ``UndoStack``, an ``UndoGroup``, or CommandStore's
/// durable history); created on the first observation.
package final class HistoryObservers {
    /// The state last published (the `old` of the next event).
    var lastState: UndoState
    private var broadcaster: ChangeBroadcaster?
    private var model: UndoStackModel?
    /// Synchronous listeners (groups, controls), called in registration order.
    var listeners: [(id: Int, handler: (UndoChange) -> Void)] = []
    private var nextListener = 0

    package init(state: UndoState) {
        lastState = state
    }

    /// A new stream of the changes from now on; the broadcaster is created on first use.
    package func makeStream() -> AsyncStream<UndoChange> {
        if let broadcaster { return broadcaster.makeStream() }
        let created = ChangeBroadcaster()
        broadcaster = created
        return created.makeStream()
    }

    /// The `@Observable` mirror of the state, created on first use.
    package func observableModel() -> UndoStackModel {
        if let model { return model }
        let created = UndoStackModel(state: lastState)
        model = created
        return created
    }

    func addListener(_ handler: @escaping (UndoChange) -> Void) -> Int {
        nextListener += 1
        listeners.append((nextListener, handler))
        return nextListener
    }

    func removeListener(_ id: Int) {
        listeners.removeAll { $0.id == id }
    }

    package func publish(_ operation: UndoChange.Operation, state: UndoState, always: Bool) {
        guard always || state != lastState else { return }
        let change = UndoChange(operation: operation, old: lastState, new: state)
        lastState = state
        model?.update(state)
        broadcaster?.yield(change)
        for listener in listeners { listener.handler(change) }
    }

    package func finish() {
        broadcaster?.finish()
    }
}

@available(*, unavailable)
extension HistoryObservers: Sendable {}
