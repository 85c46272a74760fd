/// A command made of child commands: redo runs them in order, undo in reverse order.
///
/// ``UndoStack/beginMacro(_:)`` … ``UndoStack/endMacro()`` builds one for you; you can also
/// build one yourself (Qt's parent command) and push it as a single step.
///
/// ```swift
/// try stack.push(UndoMacro("Delete 3 Albums", children: selection.map { DeleteAlbum($0) }))
/// ```
///
/// A macro is atomic when a child throws: the children already run are reverted (undone after
/// a failed redo, redone after a failed undo) before the error is rethrown, so the macro is
/// either entirely done or entirely undone. If reverting fails too, the original error is
/// rethrown and the document may be partly changed: see ``UndoError/Code/rollbackFailed``.
///
/// A macro with children is obsolete when all of its children are; an empty macro (an empty
/// `beginMacro`/`endMacro` pair, kept as a step as in Qt) is not.
public struct UndoMacro: UndoCommand {
    /// The macro's text, as shown in a history list.
    public var text: String
    /// The macro's Undo/Redo title text.
    public var actionText: String

    /// The children, oldest first.
    var entries: [UndoEntry]

    /// Whether every child was obsolete after the last run (or the macro was emptied by an edit).
    public internal(set) var isObsolete = false

    /// The child commands, in the order they run on redo.
    public var children: [any UndoCommand] { entries.map(\.command) }

    /// Creates a macro.
    /// - Parameters:
    ///   - text: The macro's text (history list).
    ///   - actionText: The Undo/Redo title text; defaults to `text`.
    ///   - children: The commands, in redo order. They are not executed now: a pushed macro
    ///     runs them on push.
    public init(_ text: String, actionText: String? = nil, children: [any UndoCommand]) {
        self.text = text
        self.actionText = actionText ?? text
        self.entries = children.map(UndoEntry.init)
    }

    init(text: String, entries: [UndoEntry]) {
        self.text = text
        self.actionText = text
        self.entries = entries
        self.isObsolete = !entries.isEmpty && entries.allSatisfy(\.isObsolete)
    }

    /// Redoes the children in order; on a failure, undoes the ones already redone and rethrows.
    public mutating func redo() throws {
        var position = 0
        var obsolete = true
        do {
            while position < entries.count {
                try entries[position].redo()
                obsolete = obsolete && entries[position].isObsolete
                position += 1
            }
        } catch {
            // Revert the children already redone, newest first, to keep the macro atomic.
            do {
                while position > 0 {
                    position -= 1
                    try entries[position].undo()
                }
            } catch let rollback {
                throw UndoError(.rollbackFailed, underlying: error, rollback: rollback)
            }
            throw error
        }
        isObsolete = obsolete && !entries.isEmpty
    }

    /// Undoes the children in reverse order; on a failure, redoes the ones already undone and rethrows.
    public mutating func undo() throws {
        var position = entries.count
        var obsolete = true
        do {
            while position > 0 {
                position -= 1
                try entries[position].undo()
                obsolete = obsolete && entries[position].isObsolete
            }
        } catch {
            // Redo the children already undone, oldest first, to keep the macro atomic.
            do {
                position += 1
                while position < entries.count {
                    try entries[position].redo()
                    position += 1
                }
            } catch let rollback {
                throw UndoError(.rollbackFailed, underlying: error, rollback: rollback)
            }
            throw error
        }
        isObsolete = obsolete && !entries.isEmpty
    }
}

@available(*, unavailable)
extension UndoMacro: Sendable {}
