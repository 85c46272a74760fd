import Locking

/// Delivers change events of one history to any number of `AsyncStream`s.
///
/// `Sendable` because a stream's termination handler runs on any thread: the continuations
/// are guarded by a `LockedState`, and `AsyncStream.Continuation` is itself `Sendable`.
final class ChangeBroadcaster: Sendable {
    private struct Subscribers: Sendable {
        var next = 0
        var continuations: [Int: AsyncStream<UndoChange>.Continuation] = [:]
    }

    private let subscribers = LockedState(Subscribers())

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

/// Everything that watches one history: its change streams, its observable model and its change
/// handlers, fed by one ``publish(_:state:always:)`` after each operation.
///
/// ``UndoStack``, ``UndoGroup`` and CommandStore's `DurableHistory` each create one when
/// something first observes them (so an unobserved history computes no state for anyone). Use it
/// when you write your own ``UndoHistory`` over a ``HistoryEngine``: call ``publish(_:state:always:)``
/// after every operation with the state the operation left, and ``finish()`` when the history goes.
///
/// ```swift
/// defer { observers?.publish(.undo, state: try engine.state(), always: false) }
/// ```
///
/// It belongs to its history's isolation domain (not `Sendable`); handlers run there, synchronously.
public final class HistoryObservers {
    /// The state last published (the `old` of the next event).
    public private(set) var state: UndoState
    private var broadcaster: ChangeBroadcaster?
    private var model: UndoStackModel?
    /// Change handlers, called in registration order.
    private var handlers: [(id: Int, handler: (UndoChange) -> Void)] = []
    private var nextHandler = 0

    /// Creates the observers of a history whose state is `state` now.
    public init(state: UndoState) {
        self.state = state
    }

    /// A new stream of the changes from now on: it is subscribed when this returns, so a change
    /// made before the stream is first iterated is still delivered.
    public func makeStream() -> AsyncStream<UndoChange> {
        if let broadcaster { return broadcaster.makeStream() }
        let created = ChangeBroadcaster()
        broadcaster = created
        return created.makeStream()
    }

    /// The `@Observable` mirror of the state, created on first use.
    public func observableModel() -> UndoStackModel {
        if let model { return model }
        let created = UndoStackModel(state: state)
        model = created
        return created
    }

    /// Calls `handler` synchronously after every published change, until the token is removed.
    ///
    /// - Parameter handler: Receives each change; it may use the history (the operation is over).
    /// - Returns: The token for ``removeChangeHandler(_:)``.
    public func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken {
        nextHandler += 1
        handlers.append((nextHandler, handler))
        return UndoChangeHandlerToken(owner: ObjectIdentifier(self), id: nextHandler)
    }

    /// Removes a change handler (no effect if it is gone already or belongs to other observers).
    public func removeChangeHandler(_ token: UndoChangeHandlerToken) {
        guard token.owner == ObjectIdentifier(self) else { return }
        handlers.removeAll { $0.id == token.id }
    }

    /// Tells everyone what an operation did.
    ///
    /// - Parameters:
    ///   - operation: What the history was asked to do.
    ///   - state: The state the operation left.
    ///   - always: `true` publishes even when `state` equals the last state published (a push,
    ///     whose merge changed the document but not the state, as Qt re-emits `indexChanged`).
    public func publish(_ operation: UndoChange.Operation, state: UndoState, always: Bool) {
        guard always || state != self.state else { return }
        let change = UndoChange(operation: operation, old: self.state, new: state)
        self.state = state
        model?.update(state)
        broadcaster?.yield(change)
        for handler in handlers { handler.handler(change) }
    }

    /// Finishes every change stream (the history is going away).
    public func finish() {
        broadcaster?.finish()
    }
}

@available(*, unavailable)
extension HistoryObservers: Sendable {}
