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
    /// * 0                              Start
    /// * 1  2026-12-02 10:00:00  ada    Add “A”
    ///   └ 2  2026-12-02 10:01:00  grace  Delete “B”
    /// > 3  2026-12-02 10:02:00  ada    Edit “A”
    /// ```
    static func historyTree(_ nodes: [HistoryNode], current: HistoryNode.ID, timeZone: TimeZone = .current) -> String {
        let rows = HistoryTreeLayout.rows(nodes, current: current)
        let width = String(nodes.map(\.id.rawValue).max() ?? 0).count
        let blank = String(repeating: " ", count: 19)
        let author = authorColumn(nodes.map(\.author))
        var text = ""
        for (offset, row) in rows.enumerated() {
            let mark = row.id == current ? ">" : row.node?.isOnPath ?? true ? "*" : " "
            let indent = HistoryTreeLayout.indent(row, previous: offset > 0 ? rows[offset - 1] : nil)
            let number = String(repeating: " ", count: width - String(row.id.rawValue).count) + String(row.id.rawValue)
            let time =
                row.node?.recordedAt.map { localTime(Date(timeIntervalSince1970: Double($0) / 1000), timeZone) }
                ?? blank
            let step = row.node.map { DisplayText.sanitized($0.text) } ?? "Start"
            text += "\(mark) \(indent)\(number)  \(time)  \(author(row.node?.author))\(step)\n"
        }
        return text
    }

    /// `history --tree --json`: `{"current": n, "steps": [{"id": 1, "parent": 0, "text": "…",
    /// "time": "2026-12-02T10:00:00Z", "author": "ada", "onPath": true}, …]}`, oldest first
    /// (`author` left out for a step recorded without one).
    static func historyTreeJSON(_ nodes: [HistoryNode], current: HistoryNode.ID) -> String {
        struct Step: Encodable {
            var id: Int
            var parent: Int
            var text: String
            /// ISO 8601 in UTC, as `history --json` writes times.
            var time: String?
            var author: String?
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
                author: node.author, onPath: node.isOnPath)
        }
        return json(Tree(current: current.rawValue, steps: steps))
    }
}
