/// A reversible change that an ``UndoStack`` executes, records, undoes and redoes.
///
/// Conform a value type where you can: the stack stores commands inline (an existential of up
/// to three words needs no allocation), and `redo()`/`undo()` are `mutating`, so a command can
/// capture what it needs while it runs (the index an item was deleted from, the old value).
///
/// ```swift
/// struct Rename: UndoCommand {
///     let library: Library
///     let id: Album.ID
///     let newTitle: String
///     var oldTitle = ""
///
///     var text: String { "Rename Album" }
///
///     mutating func redo() throws {
///         oldTitle = try library.title(of: id)
///         try library.setTitle(newTitle, of: id)
///     }
///
///     mutating func undo() throws {
///         try library.setTitle(oldTitle, of: id)
///     }
/// }
///
/// try stack.push(Rename(library: library, id: album.id, newTitle: "Blue"))
/// ```
///
/// Beyond `redo()`, `undo()` and `text`, every requirement has a default:
/// - ``actionText`` (the "Undo …" title) defaults to ``text``.
/// - ``mergeID`` and ``merge(with:)`` compress consecutive commands (typing): when a command
///   is pushed right after one of the same type with the same non-`nil` ID, the *existing*
///   command is asked to absorb the new one, which has already run. Return `true` only if
///   redoing the merged command now equals redoing both.
/// - ``isObsolete``: a command that finds itself useless (a merge that cancelled out, a change
///   that failed remotely) returns `true`; the stack removes it after it ran or merged.
/// - ``isSignificant`` (Swing's notion): an insignificant command (a selection change) is not
///   a step of its own; it is undone and redone with the significant command before it.
///
/// Commands that throw: see ``UndoStack`` for where the index stays. A command that throws
/// should leave the document as it was before the call.
public protocol UndoCommand {
    /// A short, user-visible description of the change, as shown in a history list.
    var text: String { get }

    /// The text for the Undo/Redo titles ("Delete Album" in "Undo Delete Album").
    ///
    /// Defaults to ``text``.
    var actionText: String { get }

    /// Commands with the same non-`nil` ID may merge; `nil` (the default) never merges.
    var mergeID: Int? { get }

    /// Whether the command no longer does anything and should be removed. Defaults to `false`.
    var isObsolete: Bool { get }

    /// Whether the command is a step of its own. Defaults to `true`.
    var isSignificant: Bool { get }

    /// Applies the change. Called once by ``UndoStack/push(_:)`` and again for each redo.
    mutating func redo() throws

    /// Reverts the change made by the last ``redo()``.
    mutating func undo() throws

    /// Absorbs `other`, a newer command of the same type and ``mergeID`` that has just run.
    ///
    /// Only commands of the same type are offered to each other (no cast needed), and only
    /// when the older one is on top of the history with nothing to redo above it and it is
    /// not the clean state (inside a macro: the macro's last child, even when clean).
    ///
    /// ```swift
    /// mutating func merge(with other: Self) -> Bool {
    ///     guard other.position == position + text.count else { return false }
    ///     text += other.text
    ///     return true
    /// }
    /// ```
    /// - Parameter other: The newer command, already executed.
    /// - Returns: `true` if this command now also stands for `other` (which is then discarded);
    ///   `false` to record `other` as a separate entry. The default returns `false`.
    mutating func merge(with other: Self) -> Bool
}

extension UndoCommand {
    /// The command's ``text``.
    public var actionText: String { text }
    /// `nil`: the command never merges.
    public var mergeID: Int? { nil }
    /// `false`: the command stays in the history.
    public var isObsolete: Bool { false }
    /// `true`: the command is a step of its own.
    public var isSignificant: Bool { true }
    /// Refuses to merge (returns `false`).
    public mutating func merge(with other: Self) -> Bool { false }
}

extension UndoCommand {
    /// Offers `other` to `merge(with:)` when it has the same dynamic type as `self`.
    ///
    /// Called on an opened existential: comparing metatypes replaces a dynamic cast.
    mutating func merge<Other: UndoCommand>(withAnyOf other: Other) -> Bool {
        guard Other.self == Self.self else { return false }
        return merge(with: unsafeBitCast(other, to: Self.self))
    }
}
