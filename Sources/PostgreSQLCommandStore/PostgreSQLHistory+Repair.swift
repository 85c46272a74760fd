#if PostgreSQL
import CommandKit
public import CommandStore

extension PostgreSQLHistory {
    /// Replaces the command stored at a position of the path, which `choose` picks inside the write
    /// transaction, with another, running neither: `DurableHistory.replaceCommand(at:with:expecting:)`
    /// on a server.
    ///
    /// For a history whose data was changed outside it, so that a stored step no longer applies:
    /// replacing it with a command that does nothing lets undo and redo go past it, while every
    /// other step stays as it is. The entry keeps its place, identity, node and time.
    ///
    /// `choose` runs after the history's header is locked, in the transaction that replaces the
    /// command: given the index and count committed then (no other client's change lands before
    /// the replacement), it may read the history (``command(at:)``, ``record(at:)``, ``node(at:)``
    /// read this transaction's state) and try the steps' undos or redos on the receiver, in a
    /// savepoint it rolls back, to find the step that fails. It returns the position and the
    /// replacement, or `nil` to replace nothing; it runs again when the transaction does (a
    /// serialization failure).
    ///
    /// The replaced command leaves the history, so its discard action
    /// (`CommandRegistry.register(_:whenDiscarded:)`) runs in that transaction, as for a trimmed
    /// entry. A replacement commits with a new ``revision`` and a notification, as any change does,
    /// so the other clients reread the history.
    ///
    /// ```swift
    /// try history.replaceCommand { index, count in
    ///     guard index > 0 else { return nil }
    ///     return (index - 1, Skipped(text: try history.text(at: index - 1)))
    /// }
    /// ```
    ///
    /// - Parameter choose: Given the committed index and count, the position in `0..<count` to
    ///   replace and the command to store there (registered in the history's registry), or `nil`.
    /// - Returns: Whether a command was replaced (`false`: `choose` returned `nil`; nothing was written).
    /// - Throws: What `choose` throws (nothing is written then), `StoreError` with code
    ///   `StoreError/Code/macroState` while a macro is open or `StoreError/Code/historyChanged`
    ///   for a position outside the history, or a `PostgreSQLError`.
    /// - Complexity: O(1) statements besides what `choose` runs.
    @discardableResult
    public func replaceCommand<Command: PersistentCommand>(
        choosing choose: (_ index: Int, _ count: Int) throws -> (position: Int, replacement: Command)?
    ) throws -> Bool where Command.Receiver == Receiver {
        try requireNoMacro("replaceCommand(choosing:)")
        return try perform(.edit) { _ in
            guard let choice = try choose(storage.index, storage.count) else { return false }
            guard (0..<storage.count).contains(choice.position) else {
                throw StoreError(
                    .historyChanged,
                    "the history has no step at position \(choice.position) (0..<\(storage.count)); nothing was done")
            }
            try storage.discardEntry(at: choice.position)
            try storage.replaceEntry(
                at: choice.position,
                with: DurableEntry(content: .command(ReceiverBoundCommand(choice.replacement, receiver: receiver))))
            return true
        }
    }
}
#endif
