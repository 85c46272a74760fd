/// A branching stack's tree: every state ever reached, and jumps between them.
extension UndoStack {
    /// Whether the stack keeps branches (``init(undoLimit:keepsBranches:)``).
    public var keepsBranches: Bool { engine.storage.keepsBranches }

    /// The current state: the node of the last done step, or ``HistoryNode/ID/root``.
    ///
    /// In a linear stack, nodes are numbered by position (the entry at position `p` is node
    /// `p + 1`, counted from the first entry ever kept).
    public var currentNode: HistoryNode.ID { engine.currentNode() }

    /// Every node of the tree, oldest first: the current path and the parked branches.
    /// - Complexity: O(n log n) for n nodes.
    public func nodes() -> [HistoryNode] {
        engine.storage.nodes()
    }

    /// Moves to any state of the tree, on any branch, as one operation (vim's `:undo N`).
    ///
    /// Undoes up to the state the current one and `node` share, then redoes down to `node`; its
    /// branch becomes the path that ``redo()`` follows. When a command throws, the steps already
    /// run are run back before the error is rethrown. Delivers one `jump` event.
    ///
    /// ```swift
    /// let stack = UndoStack(keepsBranches: true)
    /// try stack.push(AddAlbum(title: "A"))      // node 1
    /// try stack.undo()
    /// try stack.push(AddAlbum(title: "B"))      // node 2, beside node 1
    /// try stack.jump(to: HistoryNode.ID(1))     // "A" is back, "B" is undone
    /// ```
    /// - Parameters:
    ///   - node: The state to reach (``HistoryNode/ID/root``: before every step).
    ///   - expected: The current state the caller showed, or `nil`: refused when it is not current.
    /// - Returns: The steps undone and redone.
    /// - Throws: ``UndoError/Code/historyChanged``, ``UndoError/Code/noSuchStep`` (in a linear
    ///   stack, for a node off its path too),
    ///   ``UndoError/Code/macroOpen``, ``UndoError/Code/reentrantCall`` (from inside a command this
    ///   stack is running), a ``HistoryJumpError`` naming the step whose command threw, or
    ///   ``UndoError/Code/rollbackFailed``.
    /// - Complexity: O(k) for the k steps crossed, plus O(log n) per step moved between branches.
    @discardableResult
    public func jump(to node: HistoryNode.ID, expecting expected: HistoryNode.ID? = nil) throws -> HistoryJump {
        try perform(.jump, always: true) {
            if let expected, expected != engine.currentNode() { throw UndoError(.historyChanged) }
            if !keepsBranches, node != .root, engine.storage.pathPosition(of: node) == nil {
                throw UndoError(.noSuchStep)
            }
            return try engine.jump(to: node)
        }
    }

    /// Moves to the state recorded just before the current one, on any branch (vim's `g-`).
    /// - Returns: The jump, or `nil` at the root (nothing done).
    /// - Throws: What ``jump(to:expecting:)`` throws.
    @discardableResult
    public func jumpToEarlierState() throws -> HistoryJump? {
        guard let node = engine.chronologicalNeighbor(before: true) else { return nil }
        return try jump(to: node)
    }

    /// Moves to the state recorded just after the current one, on any branch (vim's `g+`).
    /// - Returns: The jump, or `nil` at the newest state (nothing done).
    /// - Throws: What ``jump(to:expecting:)`` throws.
    @discardableResult
    public func jumpToLaterState() throws -> HistoryJump? {
        guard let node = engine.chronologicalNeighbor(before: false) else { return nil }
        return try jump(to: node)
    }

    /// The state as it was at a time: the newest node recorded then or before it, or the root.
    /// - Parameter time: Milliseconds since 1970 (UTC).
    public func node(recordedAtOrBefore time: Int64) -> HistoryNode.ID {
        engine.node(recordedAtOrBefore: time)
    }
}
