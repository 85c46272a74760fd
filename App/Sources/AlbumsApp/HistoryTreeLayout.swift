import CommandKit

/// The order and indentation in which `albums history --tree` and the terminal UI's history panel
/// show a history's tree: depth first from the start, older branches first; the step the current
/// path continues with stays on the line, every other child starts a branch one level in.
enum HistoryTreeLayout {
    /// One row: a node (`nil` for the start) and how far in its branch is.
    struct Row {
        var node: HistoryNode?
        var depth: Int
        /// Whether the step is done (on the path from the start to the current step).
        var isDone: Bool

        /// The node's number (0 for the start).
        var id: HistoryNode.ID { node?.id ?? .root }
    }

    /// Every node, the start first.
    /// - Complexity: O(n log n); no recursion, however deep the history.
    static func rows(_ nodes: [HistoryNode], current: HistoryNode.ID) -> [Row] {
        var children: [HistoryNode.ID: [HistoryNode]] = [:]
        var parents: [HistoryNode.ID: HistoryNode.ID] = [:]
        for node in nodes {
            children[node.parent, default: []].append(node)
            parents[node.id] = node.parent
        }
        var done: Set<HistoryNode.ID> = [.root]
        var step = current
        while step != .root, let parent = parents[step] {
            done.insert(step)
            step = parent
        }
        var rows = [Row(node: nil, depth: 0, isDone: true)]
        var stack: [(node: HistoryNode, depth: Int)] = []
        func push(childrenOf parent: HistoryNode.ID, depth: Int) {
            let kids = children[parent] ?? []
            let main = kids.first { $0.isOnPath } ?? kids.last
            // Pushed in reverse, so the older branches come out first and the main line last.
            if let main { stack.append((main, depth)) }
            for kid in kids.reversed() where kid.id != main?.id { stack.append((kid, depth + 1)) }
        }
        push(childrenOf: .root, depth: 0)
        while let (node, depth) = stack.popLast() {
            rows.append(Row(node: node, depth: depth, isDone: done.contains(node.id)))
            push(childrenOf: node.id, depth: depth)
        }
        return rows
    }

    /// The indentation of a row: two spaces per level, and a corner where a branch starts.
    static func indent(_ row: Row, previous: Row?) -> String {
        guard row.depth > 0 else { return "" }
        let starts = previous.map { $0.depth < row.depth } ?? true
        return String(repeating: "  ", count: row.depth - 1) + (starts ? "└ " : "  ")
    }
}
