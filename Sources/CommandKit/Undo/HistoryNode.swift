/// One state of a branching history (a node of its tree), as lists and pickers show it.
///
/// A branching history (``UndoStack/init(undoLimit:keepsBranches:)``, CommandStore's
/// `DurableHistory`) keeps every step ever recorded, as a tree: a push after an undo starts a new
/// branch beside the redo steps instead of discarding them. Each node is the state after one
/// step; its ``id`` is the step's number in the order steps were recorded (vim's undo numbers),
/// so the numbers also order the states in time, across branches.
public struct HistoryNode: Sendable, Hashable, Identifiable {
    /// A node's number: 1 for the first step ever recorded, one more for each later one. The state
    /// before any step, the root, is ``root``.
    ///
    /// In a branching history numbers are never reused: a step that turned obsolete or was pruned
    /// leaves a gap (a command merged into the step before it never gets one). A linear history
    /// numbers its entries by position, so there a number names another step once a push discarded
    /// redo steps.
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The number.
        public var rawValue: Int

        /// Creates an ID from its number (0 is the root).
        public init(_ rawValue: Int) { self.rawValue = rawValue }

        /// The state before any step.
        public static let root = ID(0)

        /// The number, as the CLI and lists show it.
        public var description: String { String(rawValue) }

        /// Orders IDs by number, that is, by the time their steps were recorded.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The node's number.
    public var id: ID
    /// The node it branches from: the state before this step (``ID/root`` for a first step).
    public var parent: ID
    /// The step's text (``UndoCommand/text``).
    public var text: String
    /// The step's text for Undo and Redo titles.
    public var actionText: String
    /// When the step was recorded, in milliseconds since 1970 (UTC), or `nil` when unknown (a step
    /// migrated from a format that did not record it).
    public var recordedAt: Int64?
    /// Who recorded the step, when the history records authors (CommandStore's
    /// `DurableHistory.author`); `nil` otherwise.
    public var author: String?
    /// Whether the node is on the current path: done (at or below the current state) or on the redo
    /// steps that ``UndoHistory/redo()`` follows.
    public var isOnPath: Bool

    /// Creates a node description.
    public init(
        id: ID, parent: ID, text: String, actionText: String, recordedAt: Int64?, author: String? = nil,
        isOnPath: Bool
    ) {
        self.id = id
        self.parent = parent
        self.text = text
        self.actionText = actionText
        self.recordedAt = recordedAt
        self.author = author
        self.isOnPath = isOnPath
    }
}
