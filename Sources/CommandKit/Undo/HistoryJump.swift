/// What a jump through a branching history did: the steps it undid, then the steps it redid.
public struct HistoryJump: Sendable, Hashable {
    /// The steps undone, most recent first.
    public var undone: [HistoryNode.ID] = []
    /// The steps redone, oldest first.
    public var redone: [HistoryNode.ID] = []

    /// An empty jump (nothing to do: the history was at the target already).
    public init() {}
}
