/// An error raised by the undo machinery itself (not by your commands, whose errors pass through).
///
/// A struct with a stable ``code``, so new codes do not break a caller's `switch`:
///
/// ```swift
/// do { try registry.endUndoGrouping() }
/// catch let error as UndoError where error.code == .unbalancedGrouping { … }
/// ```
public struct UndoError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public var rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// `endMacro()` or `endUndoGrouping()` without a matching begin.
        public static let unbalancedGrouping = Code(rawValue: "unbalancedGrouping")
        /// Undo or redo was asked for while nested groups were open.
        public static let groupOpen = Code(rawValue: "groupOpen")
        /// ``UndoStack/undo(steps:expecting:)`` or ``UndoStack/redo(steps:expecting:)`` was asked
        /// for while a macro is open (undo and redo are disabled until it ends).
        public static let macroOpen = Code(rawValue: "macroOpen")
        /// The step an undo or redo would apply first is not the one the caller expected (its
        /// ``UndoRecord/ID``): the history changed since the caller read it. Nothing was done.
        public static let historyChanged = Code(rawValue: "historyChanged")
        /// Fewer steps can be undone than were asked for. Nothing was undone.
        public static let nothingToUndo = Code(rawValue: "nothingToUndo")
        /// Fewer steps can be redone than were asked for. Nothing was redone.
        public static let nothingToRedo = Code(rawValue: "nothingToRedo")
        /// A child of a macro failed, and reverting the children already run failed too: the
        /// document may be partly changed. ``underlying`` is the first error.
        public static let rollbackFailed = Code(rawValue: "rollbackFailed")
        /// A jump named a step that is not in the history's tree (never recorded, or pruned).
        public static let noSuchStep = Code(rawValue: "noSuchStep")
        /// A history operation was called from inside a command or registered handler that the
        /// same history is running (an undo handler calling ``UndoRegistry/undo()``, a command
        /// pushing onto its own stack). Nothing was done; the operation running goes on.
        public static let reentrantCall = Code(rawValue: "reentrantCall")
    }

    /// The stable code.
    public var code: Code
    /// A description of the first error, when this error wraps one.
    public var underlying: String?
    /// A description of the error raised while reverting, for ``Code/rollbackFailed``.
    public var rollback: String?

    /// Creates an error.
    public init(_ code: Code, underlying: (any Error)? = nil, rollback: (any Error)? = nil) {
        self.code = code
        self.underlying = underlying.map { String(describing: $0) }
        self.rollback = rollback.map { String(describing: $0) }
    }

    /// The code, followed by the wrapped errors' descriptions.
    public var description: String {
        var text = "UndoError(\(code))"
        if let underlying { text += ": \(underlying)" }
        if let rollback { text += "; reverting failed: \(rollback)" }
        return text
    }
}
