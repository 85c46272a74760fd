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
        /// Who made it, if recorded (steps recorded before history format 7 have none).
        public var author: String?
        /// Whether it is done (not undone).
        public var isDone: Bool

        /// Creates a step.
        ///
        /// - Parameters:
        ///   - number: 1 for the oldest.
        ///   - node: Its node in the tree.
        ///   - text: What it did.
        ///   - time: When it was done.
        ///   - author: Who made it.
        ///   - isDone: Whether it is done.
        public init(number: Int, node: HistoryNode.ID, text: String, time: Date?, author: String? = nil, isDone: Bool) {
            self.number = number
            self.node = node
            self.text = text
            self.time = time
            self.author = author
            self.isDone = isDone
        }
    }

    /// The history's last steps, oldest first, with their times and authors.
    ///
    /// - Parameters:
    ///   - limit: How many of the most recent steps (of that author's, with `author`); `nil` for all.
    ///   - author: Only the steps this author made; `nil` for everyone's.
    /// - Returns: The steps.
    /// - Throws: `StoreError` or `DatabaseError` if the history cannot be read.
    /// - Complexity: O(*n*) rows read, without their payloads.
    public func steps(last limit: Int? = nil, by author: String? = nil) throws -> [Step] {
        try stepListing(last: limit, by: author).steps
    }

    /// The history's last steps, as ``steps(last:by:)`` gives them, with the state they belong to:
    /// how many steps are done, how many there are and the history's revision, all read in the
    /// same transaction as the steps, so they agree whatever another process commits meanwhile.
    ///
    /// - Parameters:
    ///   - limit: How many of the most recent steps (of that author's, with `author`); `nil` for all.
    ///   - author: Only the steps this author made; `nil` for everyone's.
    /// - Returns: The steps; `current`, the number of steps done on the whole path (0: everything
    ///   undone); `count`, the number of steps on it; and `revision`, the history's revision then.
    /// - Throws: `StoreError` or `DatabaseError` if the history cannot be read.
    /// - Complexity: O(*n*) rows read, without their payloads.
    public func stepListing(
        last limit: Int? = nil, by author: String? = nil
    ) throws -> (steps: [Step], current: Int, count: Int, revision: Int) {
        let read = try history.records()
        let steps = read.records.enumerated().compactMap { index, record -> Step? in
            guard author == nil || record.author == author else { return nil }
            return Step(
                number: index + 1, node: read.nodes[index], text: record.text, time: record.date, author: record.author,
                isDone: index < read.index)
        }
        return (Array(steps.suffix(limit ?? steps.count)), read.index, read.records.count, read.revision)
    }
}
