extension UndoStack {
    /// Runs a mutating operation: refuses re-entrance and, when someone observes, publishes
    /// the resulting change.
    ///
    /// The change is published even when the operation throws: a failing undo may still have
    /// moved the index part of the way.
    /// - Throws: ``UndoError/Code/reentrantCall`` when an operation of this stack is running (a
    ///   command or a registered handler called back into it): nothing is done, and the running
    ///   operation goes on undisturbed. Otherwise what `body` throws.
    @inline(__always)
    func perform<Result>(
        _ operation: UndoChange.Operation,
        always: Bool = false,
        _ body: () throws -> Result
    ) throws -> Result {
        // Before anything is set or deferred: the running operation's state must stay its own.
        guard performing == .none else { throw UndoError(.reentrantCall) }
        return try performWhileIdle(operation, always: always, body)
    }

    /// `perform` for the operations that cannot throw: called back from inside a running
    /// operation, it does nothing and returns `nil` (documented on each of them).
    @inline(__always)
    @discardableResult
    func performUnlessRunning<Result>(
        _ operation: UndoChange.Operation,
        always: Bool = false,
        _ body: () -> Result
    ) -> Result? {
        guard performing == .none else { return nil }
        return performWhileIdle(operation, always: always, body)
    }

    /// The operation itself, once the stack is known to be idle.
    @inline(__always)
    private func performWhileIdle<Result>(
        _ operation: UndoChange.Operation,
        always: Bool,
        _ body: () throws -> Result
    ) rethrows -> Result {
        performing = .other
        var succeeded = false
        defer {
            performing = .none
            if let registry = joiningRegistry {
                joiningRegistry = nil
                registry.discardJoined()
            }
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
    /// Each access returns a new stream, subscribed at once, that receives every change from then
    /// on (buffered without limit, so a slow consumer loses nothing); the stream finishes when the
    /// stack is deallocated. Take it before starting the task that reads it, or the changes made
    /// before the task first runs are missed. See ``UndoChange`` for when events are delivered.
    ///
    /// ```swift
    /// let changes = stack.changes  // subscribed now
    /// Task { @MainActor in
    ///     for await change in changes where change.canUndoChanged {
    ///         undoButton.isEnabled = change.new.canUndo
    ///     }
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

    /// Calls `handler` synchronously after every change, as Qt's signals and `UndoManager`'s
    /// notifications are delivered: on the stack's isolation domain, once the operation is over
    /// (the handler may use the stack), in the order handlers were added.
    ///
    /// ```swift
    /// let token = stack.addChangeHandler { change in
    ///     if change.cleanChanged { window.isDocumentEdited = !change.new.isClean }
    /// }
    /// stack.removeChangeHandler(token)  // when the window closes
    /// ```
    /// - Parameter handler: Receives each change (see ``UndoChange`` for when).
    /// - Returns: The token that removes it.
    @discardableResult
    public func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken {
        observation.addChangeHandler(handler)
    }

    /// Removes a change handler added with ``addChangeHandler(_:)`` (no effect if already removed).
    public func removeChangeHandler(_ token: UndoChangeHandlerToken) {
        observers?.removeChangeHandler(token)
    }
}
