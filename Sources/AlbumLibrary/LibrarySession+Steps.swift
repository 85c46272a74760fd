import CommandStore
public import Foundation

extension LibrarySession {
    /// One step of the history, as `albums history` shows it.
    public struct Step: Sendable, Hashable {
        /// The step's number: 1 for the oldest.
        public var number: Int
        /// What the step did ("Delete “Best of Bowie”").
        public var text: String
        /// When it was done, if recorded (steps of libraries written before times were kept have none).
        public var time: Date?
        /// Whether it is done (not undone).
        public var isDone: Bool

        /// Creates a step.
        ///
        /// - Parameters:
        ///   - number: 1 for the oldest.
        ///   - text: What it did.
        ///   - time: When it was done.
        ///   - isDone: Whether it is done.
        public init(number: Int, text: String, time: Date?, isDone: Bool) {
            self.number = number
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
    /// - Complexity: O(*k*) for the *k* steps returned: only their entries are read.
    public func steps(last limit: Int? = nil) throws -> [Step] {
        let count = history.count
        let first = max(0, count - (limit ?? count))
        var times: [Int: Date] = [:]
        let statement = try database.cachedStatement("SELECT step, time FROM step_time WHERE step >= ? AND step < ?")
        try statement.forEachRow([first, count]) { row in
            times[try row.decode(Int.self, at: 0)] = Date(timeIntervalSince1970: try row.decode(Double.self, at: 1))
        }
        return try (first..<count).map { index in
            Step(
                number: index + 1, text: try history.text(at: index), time: times[index], isDone: index < history.index)
        }
    }

    /// Records the time of the step just pushed, and forgets the times of the steps it dropped.
    ///
    /// Called inside the push's transaction, so a step and its time commit together. The history
    /// keeps every step (albums sets no undo limit), so a step's index is stable until a push drops it.
    func recordStepTime() throws {
        let step = history.count - 1
        guard step >= 0 else { return }
        try database.execute("DELETE FROM step_time WHERE step >= ?", [step])
        try database.execute(
            "INSERT INTO step_time (step, time) VALUES (?, ?)", [step, Date().timeIntervalSince1970])
    }
}
