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

/// Everything that watches one ``UndoStack``; created on the first observation.
final class UndoStackObservers {
    /// The state last published (the `old` of the next event).
    var lastState: UndoState
    private var broadcaster: ChangeBroadcaster?
    private var model: UndoStackModel?
    /// Synchronous listeners (groups, controls), called in registration order.
    var listeners: [(id: Int, handler: (UndoChange) -> Void)] = []
    private var nextListener = 0

    init(state: UndoState) {
        lastState = state
    }

    /// A new stream of the changes from now on; the broadcaster is created on first use.
    func makeStream() -> AsyncStream<UndoChange> {
        if let broadcaster { return broadcaster.makeStream() }
        let created = ChangeBroadcaster()
        broadcaster = created
        return created.makeStream()
    }

    /// The `@Observable` mirror of the state, created on first use.
    func observableModel() -> UndoStackModel {
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

    func publish(_ operation: UndoChange.Operation, state: UndoState, always: Bool) {
        guard always || state != lastState else { return }
        let change = UndoChange(operation: operation, old: lastState, new: state)
        lastState = state
        model?.update(state)
        broadcaster?.yield(change)
        for listener in listeners { listener.handler(change) }
    }

    func finish() {
        broadcaster?.finish()
    }
}

@available(*, unavailable)
extension UndoStackObservers: Sendable {}

extension UndoStack {
    /// Runs a mutating operation: refuses re-entrance and, when someone observes, publishes
    /// the resulting change.
    ///
    /// The change is published even when the operation throws: a failing undo may still have
    /// moved the index part of the way.
    @inline(__always)
    func perform<Result>(
        _ operation: UndoChange.Operation,
        always: Bool = false,
        _ body: () throws -> Result
    ) rethrows -> Result {
        precondition(!isPerforming, "UndoStack: a command called back into the stack that is running it")
        isPerforming = true
        var succeeded = false
        defer {
            isPerforming = false
            if let observers {
                observers.publish(operation, state: engine.state(), always: always && succeeded)
            }
        }
        let result = try body()
        succeeded = true
        return result
    }

    /// The observers, created on first use.
    var observation: UndoStackObservers {
        if let observers { return observers }
        let created = UndoStackObservers(state: engine.state())
        observers = created
        return created
    }

    /// The stack's changes, as an asynchronous sequence of events.
    ///
    /// Each access returns a new stream that receives every change from then on (buffered
    /// without limit, so a slow consumer loses nothing); the stream finishes when the stack is
    /// deallocated. See ``UndoChange`` for when events are delivered.
    ///
    /// ```swift
    /// for await change in stack.changes where change.canUndoChanged {
    ///     undoButton.isEnabled = change.new.canUndo
    /// }
    /// ```
    public var changes: AsyncStream<UndoChange> {
        observation.makeStream()
    }

    /// An `@Observable` mirror of the stack's state, for SwiftUI and `withObservationTracking`.
    ///
    /// Created on first access; from then on it is updated after every change.
    public var model: UndoStackModel {
        observation.observableModel()
    }

    /// Calls `handler` synchronously after every change; returns an ID for ``removeListener(_:)``.
    func addListener(_ handler: @escaping (UndoChange) -> Void) -> Int {
        observation.addListener(handler)
    }

    func removeListener(_ id: Int) {
        observers?.removeListener(id)
    }
}
