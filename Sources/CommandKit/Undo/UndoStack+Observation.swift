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
    var observation: HistoryObservers {
        if let observers { return observers }
        let created = HistoryObservers(state: engine.state())
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
