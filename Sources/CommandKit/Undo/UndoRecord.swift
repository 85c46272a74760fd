/// What an ``UndoStack`` reports about one of its steps: its identity and its texts.
///
/// ``UndoStack/undoRecord`` names the step the next undo reverts; pass its ``id`` to
/// ``UndoStack/undo(steps:expecting:)`` to undo that step only if it is still the one on top, as
/// the Undo control does. Records are values: they do not change when the stack does.
public struct UndoRecord: Sendable, Hashable, Identifiable {
    /// The identity of a stack entry.
    ///
    /// Two IDs are equal only when they name the same recorded entry: an entry recorded later at
    /// the same position (after an undo and a new push) has another ID. Removing entries other than
    /// by limit trimming (dropping the redo tail, an obsolete entry, clearing) gives every entry a
    /// new ID, so an expectation taken before such a removal is refused even when its entry
    /// survived: it errs on the side of doing nothing.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        /// The entry's position counted from the first entry ever kept (trimming does not change it).
        let position: Int
        /// The stack's removal generation when the ID was read.
        let generation: Int

        /// A short form for logs, such as `"12@3"` (position 12, generation 3).
        public var description: String { "\(position)@\(generation)" }
    }

    /// The entry's identity.
    public var id: ID
    /// The entry's text (``UndoCommand/text``), as shown in a history list.
    public var text: String
    /// The entry's text for Undo and Redo titles (``UndoCommand/actionText``).
    public var actionText: String
}
