/// One step of a history as the shared engine sees it: something that can redo and undo itself.
///
/// ``HistoryEngine`` never looks inside an entry beyond these requirements, so each storage
/// chooses its own entry type. The in-memory ``UndoStack`` wraps an ``UndoCommand`` value; a
/// durable storage wraps a decoded command together with the receiver it runs against, so that
/// `redo()` here means `command.redo(on: receiver)` there.
///
/// The semantics are those of ``UndoCommand`` (see there for the full contract):
/// - `redo()` and `undo()` apply and revert the change. They may mutate the entry (a command
///   that captures state while it runs); the engine writes the mutated entry back through
///   ``HistoryStorage/modifyEntry(at:_:)``.
/// - `mergeID` and `merge(with:)`: the engine offers an incoming entry to the entry on top
///   when both have the same non-`nil` merge ID; the existing entry decides.
/// - `isObsolete`: checked after redo, undo and merge; an obsolete entry is removed.
/// - `isSignificant`: an insignificant entry is undone and redone together with the
///   significant entry pushed before it.
/// - `macro(text:children:)`: builds the entry that stands for a closed macro.
public protocol HistoryEntry {
    /// The text shown in a history list.
    var text: String { get }
    /// The text used for "Undo …"/"Redo …" titles.
    var actionText: String { get }
    /// Entries with equal non-`nil` IDs are offered to each other for merging.
    var mergeID: Int? { get }
    /// An obsolete entry is removed from the history after it ran or merged.
    var isObsolete: Bool { get }
    /// Whether the entry is a step of its own (`true`) or rides along with its predecessor.
    var isSignificant: Bool { get }

    /// Applies (or re-applies) the change.
    mutating func redo() throws
    /// Reverts the change.
    mutating func undo() throws
    /// Absorbs `other`, which has already been executed, returning `true` on success.
    mutating func merge(with other: Self) -> Bool
    /// The entry that stands for a closed macro: redo runs `children` in order, undo in reverse.
    static func macro(text: String, children: [Self]) -> Self
}
