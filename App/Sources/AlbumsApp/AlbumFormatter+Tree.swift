import AlbumLibrary
import CommandKit
import Foundation

/// `albums history --tree`: the history's tree, like `git log --graph` turned on its side.
extension AlbumFormatter {
    /// Every node, depth first from the start, older branches first; a branch is indented one
    /// level under the step it grew from. `>` marks the current step, `*` the other steps on the
    /// path (done, or the redo steps `albums redo` follows); the rest are other branches.
    ///
    /// ```
    /// > 0                       Start
    /// * 1  2026-12-02 10:00:00  Add “A”
    ///   └ 2  2026-12-02 10:01:00  Delete “B”
    /// > 3  2026-12-02 10:02:00  Edit “A”
    /// ```
    static func historyTree(_ nodes: [HistoryNode], current: HistoryNode.ID, timeZone: TimeZone = .current) -> String {
        var children: [HistoryNode.ID: [HistoryNode]] = [:]
        for node in nodes { children[node.parent, default: []].append(node) }
        let width = String(nodes.last?.id.rawValue ?? 0).count
        let blank = String(repeating: " ", count: 19)
        func line(_ mark: String, _ depth: Int, _ id: HistoryNode.ID, _ time: String, _ text: String) -> String {
            let indent = depth == 0 ? "" : String(repeating: "  ", count: depth - 1) + "└ "
            let number = String(repeating: " ", count: width - String(id.rawValue).count) + String(id.rawValue)
            return "\(mark) \(indent)\(number)  \(time)  \(text)\n"
        }
        var text = line(current == .root ? ">" : "*", 0, .root, blank, "Start")
        // Depth first without recursion (a long history is deep): the path's child continues the
        // line; every other child starts a branch one level in.
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
            let mark = node.id == current ? ">" : node.isOnPath ? "*" : " "
            let time =
                node.recordedAt.map { localTime(Date(timeIntervalSince1970: Double($0) / 1000), timeZone) } ?? blank
            text += line(mark, depth, node.id, time, DisplayText.sanitized(node.text))
            push(childrenOf: node.id, depth: depth)
        }
        return text
    }

    /// `history --tree --json`: `{"current": n, "steps": [{"id": 1, "parent": 0, "text": "…",
    /// "time": "2026-12-02T10:00:00Z", "onPath": true}, …]}`, oldest first.
    static func historyTreeJSON(_ nodes: [HistoryNode], current: HistoryNode.ID) -> String {
        struct Step: Encodable {
            var id: Int
            var parent: Int
            var text: String
            /// ISO 8601 in UTC, as `history --json` writes times.
            var time: String?
            var onPath: Bool
        }
        struct Tree: Encodable {
            var current: Int
            var steps: [Step]
        }
        let iso = ISO8601DateFormatter()
        let steps = nodes.map { node in
            Step(
                id: node.id.rawValue, parent: node.parent.rawValue, text: node.text,
                time: node.recordedAt.map { iso.string(from: Date(timeIntervalSince1970: Double($0) / 1000)) },
                onPath: node.isOnPath)
        }
        return json(Tree(current: current.rawValue, steps: steps))
    }
}
