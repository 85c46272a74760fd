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
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let push = Operation(rawValue: "push")
        public static let undo = Operation(rawValue: "undo")
        public static let redo = Operation(rawValue: "redo")
        public static let jump = Operation(rawValue: "jump")
        public static let beginMacro = Operation(rawValue: "beginMacro")
        public static let endMacro = Operation(rawValue: "endMacro")
        public static let setClean = Operation(rawValue: "setClean")
        public static let resetClean = Operation(rawValue: "resetClean")
        public static let clear = Operation(rawValue: "clear")
        public static let setUndoLimit = Operation(rawValue: "setUndoLimit")
        /// Entries were edited or removed outside undo/redo (registration-style removal,
        /// renaming an action).
        public static let edit = Operation(rawValue: "edit")
        /// A stack group's active stack changed.
        public static let activate = Operation(rawValue: "activate")
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
