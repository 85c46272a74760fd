public import CommandKit
import SQLiteDatabase

/// A branching durable history's tree: every state ever reached, and jumps between them, each
/// decided inside its write transaction (`CommandKit`'s "Time travel").
extension DurableHistory {
    /// Whether the history keeps branches (stored in the file: the same for every process).
    public var keepsBranches: Bool { storage.keepsBranches }

    /// The current state as committed now (checked as ``state`` is): the node of the last done
    /// step, or `HistoryNode.ID.root`.
    public var currentNode: HistoryNode.ID {
        _ = committedState()
        return (try? engine.currentNode()) ?? .root
    }

    /// The node of the entry at a position of the current path: the number ``jump(to:expecting:)``
    /// takes. Inside an operation (a `push(_:)` whose command is being made), of the state being
    /// changed.
    ///
    /// - Parameter position: A position in `0..<count`.
    /// - Throws: ``StoreError/Code/historyChanged`` when the position is gone, or a `DatabaseError`.
    /// - Complexity: One indexed row, without its payload.
    public func node(at position: Int) throws -> HistoryNode.ID {
        try readCommitted {
            guard (0..<storage.count).contains(position) else {
                throw StoreError(
                    .historyChanged,
                    "\(database.path): history entry \(position) is gone (the history has \(storage.count) entries now)",
                    path: database.path)
            }
            return try storage.nodeID(at: position)
        }.value
    }

    /// Every node of the tree, oldest first, read from what is committed now.
    /// - Complexity: O(n log n) for n nodes.
    public func nodes() throws -> [HistoryNode] {
        try readCommitted { try storage.nodes() }.value
    }

    /// Every node of the tree and the current one, read in one snapshot of what is committed now
    /// (read apart, another process's commit in between could mark a step that is not current).
    /// - Complexity: O(n log n) for n nodes.
    public func tree() throws -> (nodes: [HistoryNode], current: HistoryNode.ID) {
        try readCommitted { (try storage.nodes(), try engine.currentNode()) }.value
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
        try requireNoMacro("jump(to:)")
        return try perform(.jump, always: true) { engine in
            let current = try engine.currentNode()
            if let expected, expected != current {
                let now =
                    engine.index == 0
                    ? "the history is now at its start"
                    : "the current step is now \(current) “\(try storage.record(at: engine.index - 1).actionText)”"
                throw StoreError(
                    .historyChanged, "another process changed the history: \(now); nothing was done",
                    path: database.path)
            }
            if node != .root, try storage.pathPosition(of: node) == nil, try storage.parkedParent(of: node) == nil {
                throw UndoError(.noSuchStep)
            }
            return try engine.jump(to: node, runningBackOnFailure: false)
        }
    }

    /// The state recorded just before (`before == true`) or after the current one, on any branch,
    /// as committed now (vim's `g-` and `g+`); `nil` when there is none.
    public func chronologicalNeighbor(before: Bool) throws -> HistoryNode.ID? {
        try readCommitted { try engine.chronologicalNeighbor(before: before) }.value
    }

    /// The state as it was at a time: the newest node recorded then or before, or the root.
    /// - Parameter time: Milliseconds since 1970 (UTC).
    public func node(recordedAtOrBefore time: Int64) throws -> HistoryNode.ID {
        try readCommitted { try engine.node(recordedAtOrBefore: time) }.value
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
        try requireNoMacro("jump(toStateRecordedAtOrBefore:)")
        return try perform(.jump, always: true) { engine in
            let node = try engine.node(recordedAtOrBefore: time)
            return (node, try engine.jump(to: node, runningBackOnFailure: false))
        }
    }
}
