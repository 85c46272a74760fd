package import CommandKit

/// A branching history's tree, once for both durable histories: every read from what is
/// committed now, every jump decided inside its write transaction.
extension EngineBackedHistory {
    /// The node of the last done step, or the root, as committed now.
    package var committedCurrentNode: HistoryNode.ID {
        _ = committedState()
        return (try? engine.currentNode()) ?? .root
    }

    /// The node of the entry at a position of the current path.
    package func nodeOfEntry(at position: Int) throws -> HistoryNode.ID {
        try readCommittedValue {
            try requirePosition(position)
            return try storage.nodeID(at: position)
        }
    }

    /// Every node of the tree, oldest first.
    package func committedNodes() throws -> [HistoryNode] {
        try readCommittedValue { try storage.nodes() }
    }

    /// Every node and the current one, in one snapshot.
    package func committedTree() throws -> (nodes: [HistoryNode], current: HistoryNode.ID) {
        try readCommittedValue { (try storage.nodes(), try engine.currentNode()) }
    }

    /// Moves to any node, refused when `expected` is not current when the transaction starts.
    package func jumpToNode(_ node: HistoryNode.ID, expecting expected: HistoryNode.ID?) throws -> HistoryJump {
        try requireNoMacro("jump(to:)")
        return try perform(.jump, always: true) { engine in
            let current = try engine.currentNode()
            if let expected, expected != current {
                let now =
                    engine.index == 0
                    ? "the history is now at its start"
                    : "the current step is now \(current) “\(try storage.record(at: engine.index - 1).actionText)”"
                throw storeError(
                    .historyChanged, "\(otherWriter) changed the history: \(now); nothing was done",
                    undoErrorCode: nil)
            }
            if node != .root, try storage.pathPosition(of: node) == nil, try storage.parkedParent(of: node) == nil {
                throw UndoError(.noSuchStep)
            }
            return try engine.jump(to: node, runningBackOnFailure: false)
        }
    }

    /// The node recorded just before or after the current one, on any branch.
    package func committedNeighbor(before: Bool) throws -> HistoryNode.ID? {
        try readCommittedValue { try engine.chronologicalNeighbor(before: before) }
    }

    /// The newest node recorded at or before a time, or the root.
    package func committedNode(recordedAtOrBefore time: Int64) throws -> HistoryNode.ID {
        try readCommittedValue { try engine.node(recordedAtOrBefore: time) }
    }

    /// Moves to the state as it was at a time, chosen inside the write transaction.
    package func jumpToState(recordedAtOrBefore time: Int64) throws -> (node: HistoryNode.ID, jump: HistoryJump) {
        try requireNoMacro("jump(toStateRecordedAtOrBefore:)")
        return try perform(.jump, always: true) { engine in
            let node = try engine.node(recordedAtOrBefore: time)
            return (node, try engine.jump(to: node, runningBackOnFailure: false))
        }
    }
}
