/// A jump through a branching history stopped because a step's command threw.
///
/// Everything the jump did was reverted first: the history is where it was before the jump (an
/// ``UndoStack`` runs the steps back; a durable history rolls its transaction back).
public struct HistoryJumpError: Error, CustomStringConvertible {
    /// The step whose command threw.
    public var step: HistoryNode.ID
    /// Its text.
    public var text: String
    /// Whether the command threw while undoing (`true`) or redoing the step.
    public var wasUndoing: Bool
    /// What the command threw.
    public var error: any Error

    /// Creates the error.
    public init(step: HistoryNode.ID, text: String, wasUndoing: Bool, error: any Error) {
        self.step = step
        self.text = text
        self.wasUndoing = wasUndoing
        self.error = error
    }

    /// "step 12 “Delete X” failed to undo: …".
    public var description: String {
        "step \(step) “\(text)” failed to \(wasUndoing ? "undo" : "redo"): \(error)"
    }
}
