public import CommandKit
import CommandStore
public import Foundation

extension LibrarySession {
    /// One step of the history, as `albums history` shows it.
    public struct Step: Sendable, Hashable {
        /// The step's position on the history's path: 1 for the oldest kept.
        public var number: Int
        /// The step's node in the history's tree: the number `albums undo --to` takes. It differs
        /// from ``number`` once a change was made after an undo (the undone steps became a branch)
        /// or the oldest steps were trimmed.
        public var node: HistoryNode.ID
        /// What the step did ("Delete “Best of Bowie”").
        public var text: String
        /// When it was first done, if recorded (steps recorded before history format 4 have none).
        public var time: Date?
        /// Whether it is done (not undone).
        public var isDone: Bool

        /// Creates a step.
        ///
        /// - Parameters:
        ///   - number: 1 for the oldest.
        ///   - node: Its node in the tree.
        ///   - text: What it did.
        ///   - time: When it was done.
        ///   - isDone: Whether it is done.
        public init(number: Int, node: HistoryNode.ID, text: String, time: Date?, isDone: Bool) {
            self.number = number
            self.node = node
            self.text = text
            self.time = time
            self.isDone = isDone
        }
    }

    /// The history's last steps, oldest first, with their times.
    ///
    /// - Parameter limit: How many of the most recent steps; `nil` for all of them.
    /// - Returns: The steps.
    /// - Throws: `StoreError` or `DatabaseError` if the history cannot be read.
    /// - Complexity: O(*n*) rows read, without their payloads.
    public func steps(last limit: Int? = nil) throws -> [Step] {
        // One read of every record (no payloads) and the index, so the steps agree with each other
        // whatever another process commits meanwhile.
        let read = try history.records()
        let first = max(0, read.records.count - (limit ?? read.records.count))
        return read.records.enumerated().dropFirst(first).map { index, record in
            Step(
                number: index + 1, node: read.nodes[index], text: record.text, time: record.date,
                isDone: index < read.index)
        }
    }
}
