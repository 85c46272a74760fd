/// One change of an undo history, as delivered by ``UndoStack/changes``.
///
/// An event is delivered after every operation that changed the observable ``UndoState``,
/// and after every push outside a macro (a merge changes the document without moving the
/// index, which is when Qt re-emits `indexChanged`). A jump delivers one event however far it
/// goes; a macro delivers one when it opens (the stack becomes disabled) and one when the
/// outermost macro closes. Operations that change nothing deliver nothing.
public struct UndoChange: Sendable, Hashable {
    /// What the history was asked to do.
    public struct Operation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The operation's stable name.
        public var rawValue: String
        /// Creates an operation from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The operation's name.
        public var description: String { rawValue }

        /// A command was pushed (or recorded), merged, or dropped as obsolete.
        public static let push = Operation(rawValue: "push")
        /// One step was undone.
        public static let undo = Operation(rawValue: "undo")
        /// One step was redone.
        public static let redo = Operation(rawValue: "redo")
        /// The index was set directly (`setIndex`).
        public static let jump = Operation(rawValue: "jump")
        /// A macro was opened.
        public static let beginMacro = Operation(rawValue: "beginMacro")
        /// A macro was closed.
        public static let endMacro = Operation(rawValue: "endMacro")
        /// The current index was marked clean.
        public static let setClean = Operation(rawValue: "setClean")
        /// The clean index was forgotten.
        public static let resetClean = Operation(rawValue: "resetClean")
        /// The history was cleared.
        public static let clear = Operation(rawValue: "clear")
        /// The undo limit changed (and may have trimmed entries).
        public static let setUndoLimit = Operation(rawValue: "setUndoLimit")
        /// Entries were edited or removed outside undo/redo (registration-style removal,
        /// renaming an action).
        public static let edit = Operation(rawValue: "edit")
        /// A stack group's active stack changed.
        public static let activate = Operation(rawValue: "activate")
        /// The history was read again from where it is stored (CommandStore's durable history,
        /// after another process or a rolled-back transaction changed it).
        public static let reload = Operation(rawValue: "reload")
    }

    /// The operation that caused the change.
    public var operation: Operation
    /// The state before the operation.
    public var old: UndoState
    /// The state after the operation.
    public var new: UndoState

    /// Creates a change event.
    public init(operation: Operation, old: UndoState, new: UndoState) {
        self.operation = operation
        self.old = old
        self.new = new
    }

    /// Whether the index moved (Qt's `indexChanged`).
    public var indexChanged: Bool { old.index != new.index }
    /// Whether the clean state flipped (Qt's `cleanChanged`).
    public var cleanChanged: Bool { old.isClean != new.isClean }
    /// Whether undo became possible or impossible (Qt's `canUndoChanged`).
    public var canUndoChanged: Bool { old.canUndo != new.canUndo }
    /// Whether redo became possible or impossible (Qt's `canRedoChanged`).
    public var canRedoChanged: Bool { old.canRedo != new.canRedo }
    /// Whether the undo title changed (Qt's `undoTextChanged`).
    public var undoTextChanged: Bool { old.undoText != new.undoText }
    /// Whether the redo title changed (Qt's `redoTextChanged`).
    public var redoTextChanged: Bool { old.redoText != new.redoText }
}
