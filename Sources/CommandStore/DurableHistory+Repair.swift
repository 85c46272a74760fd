import CommandKit

extension DurableHistory {
    /// Replaces the command stored at a position of the path with another, running neither.
    ///
    /// For a history whose data was changed by another program, so that a stored step no longer
    /// applies: replacing it with a command that does nothing lets undo and redo go past it, while
    /// every other step stays as it is. The entry keeps its place, identity and time; the change
    /// commits in one transaction and takes a ``revision``, as any change of the history does.
    /// The replaced command leaves the history, so its discard action
    /// (``CommandRegistry/register(_:whenDiscarded:)``) runs in that transaction, as for a trimmed
    /// entry: what it kept for its undo or redo goes with it.
    ///
    /// - Parameters:
    ///   - position: A position in `0..<count`.
    ///   - replacement: The command to store there; it must be registered in the history's registry.
    ///   - expected: The identity of the entry the caller means (``HistoryRecord/id``): another
    ///     process may have changed the history since the caller read it.
    /// - Throws: ``StoreError`` with ``StoreError/Code/historyChanged`` when the entry at
    ///   `position` is not `expected` (nothing is replaced), ``StoreError/Code/macroState`` while a
    ///   macro is open, or a `DatabaseError`.
    /// - Complexity: O(1) database statements.
    public func replaceCommand<Command: PersistentCommand>(
        at position: Int, with replacement: Command, expecting expected: HistoryRecord.ID
    ) throws where Command.Receiver == Receiver {
        try requireNoMacro("replaceCommand(at:with:expecting:)")
        try perform(.edit) { engine in
            guard (0..<engine.storage.count).contains(position),
                try engine.storage.record(at: position).id == expected
            else {
                throw StoreError(
                    .historyChanged, "another process changed the history: the step is not there now; nothing was done",
                    path: database.path)
            }
            try engine.storage.discardEntry(at: position)
            try engine.storage.replaceEntry(
                at: position,
                with: DurableEntry(content: .command(ReceiverBoundCommand(replacement, receiver: receiver))))
        }
    }
}
