/// What a jump through a history did: the steps it undid, then the steps it redid.
public struct HistoryJump: Sendable, Hashable {
    /// One step the jump ran.
    public struct Step: Sendable, Hashable {
        /// The step's node.
        public var id: HistoryNode.ID
        /// Its text, as it was when the jump ran it.
        public var text: String

        /// Creates a step.
        public init(id: HistoryNode.ID, text: String) {
            self.id = id
            self.text = text
        }
    }

    /// The steps undone, most recent first.
    public var undone: [Step] = []
    /// The steps redone, oldest first.
    public var redone: [Step] = []

    /// An empty jump (nothing to do: the history was at the target already).
    public init() {}
}
