public import CommandKit
import SQLiteDatabase

/// A branching durable history's tree: every state ever reached, and jumps between them, each
/// decided inside its write transaction (`CommandKit`'s "Time travel").
extension DurableHistory {
    /// Whether the history keeps branches (stored in the file: the same for every process).
    public var keepsBranches: Bool { storage.keepsBranches }

    /// The current state as committed now (checked as ``state`` is): the node of the last done
    /// step, or `HistoryNode.ID.root`.
    public var currentNode: HistoryNode.ID { committedCurrentNode }

    /// The node of the entry at a position of the current path: the number ``jump(to:expecting:)``
    /// takes. Inside an operation (a `push(_:)` whose command is being made), of the state being
    /// changed.
    ///
    /// - Parameter position: A position in `0..<count`.
    /// - Throws: ``StoreError/Code/historyChanged`` when the position is gone, or a `DatabaseError`.
    /// - Complexity: One indexed row, without its payload.
    public func node(at position: Int) throws -> HistoryNode.ID {
        try nodeOfEntry(at: position)
    }

    /// Every node of the tree, oldest first, read from what is committed now.
    /// - Complexity: O(n log n) for n nodes.
    public func nodes() throws -> [HistoryNode] {
        try committedNodes()
    }

    /// Every node of the tree and the current one, read in one snapshot of what is committed now
    /// (read apart, another process's commit in between could mark a step that is not current).
    /// - Complexity: O(n log n) for n nodes.
    public func tree() throws -> (nodes: [HistoryNode], current: HistoryNode.ID) {
        try committedTree()
    }

    /// Moves to any state of the tree, on any branch, in one transaction.
    ///
    /// Decided from what is committed when the transaction starts: with `expected`, refused
    /// (changing nothing) when another state is current then, as when another process undid,
    /// redid, pushed or jumped since the caller looked. When a command throws, the transaction is
    /// rolled back: nothing of the jump stays.
    ///
    /// - Parameters:
    ///   - node: The state to reach (`.root`: before every step).
    ///   - expected: The current state the caller showed (``currentNode``), or `nil`.
    /// - Returns: The steps undone and redone.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/historyChanged`` (the message names the
    ///   state that is current), `UndoError` `noSuchStep` when the node is not in the tree,
    ///   ``StoreError/Code/macroState`` while a macro is open, a `HistoryJumpError` naming the step
    ///   whose command threw, or a `DatabaseError`.
    /// - Complexity: O(k) for the k steps crossed, each an indexed row; plus one `INSERT … SELECT`
    ///   per branch moved.
    @discardableResult
    public func jump(to node: HistoryNode.ID, expecting expected: HistoryNode.ID? = nil) throws -> HistoryJump {
        try jumpToNode(node, expecting: expected)
    }

    /// The state recorded just before (`before == true`) or after the current one, on any branch,
    /// as committed now (vim's `g-` and `g+`); `nil` when there is none.
    public func chronologicalNeighbor(before: Bool) throws -> HistoryNode.ID? {
        try committedNeighbor(before: before)
    }

    /// The state as it was at a time: the newest node recorded then or before, or the root.
    /// - Parameter time: Milliseconds since 1970 (UTC).
    public func node(recordedAtOrBefore time: Int64) throws -> HistoryNode.ID {
        try committedNode(recordedAtOrBefore: time)
    }
}

extension DurableHistory {
    /// Moves to the state as it was at a time, in one transaction: the newest node recorded then or
    /// before (or the root), chosen from what is committed when the transaction starts.
    ///
    /// - Parameter time: Milliseconds since 1970 (UTC).
    /// - Returns: The state reached and the steps undone and redone.
    /// - Throws: What ``jump(to:expecting:)`` throws.
    @discardableResult
    public func jump(toStateRecordedAtOrBefore time: Int64) throws -> (node: HistoryNode.ID, jump: HistoryJump) {
        try jumpToState(recordedAtOrBefore: time)
    }
}
