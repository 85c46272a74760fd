/// A step that stopped applying and that `albums history --repair` set aside: undo and redo pass
/// over it and change nothing, and the history keeps its text and why it was skipped.
///
/// Stored in place of the step by ``LibrarySession/repairHistory()``, when the library was
/// changed by another program (a row edited or deleted with the sqlite3 shell) so that the step's
/// own undo or redo refuses to run.
public struct SkippedStepCommand: Codable, Sendable, Hashable {
    /// The text of the step it replaces (“Delete “Low””).
    public var skippedText: String
    /// Why that step no longer applied, as its undo or redo said it.
    public var reason: String

    /// Creates the command.
    ///
    /// - Parameters:
    ///   - skippedText: The text of the step it replaces.
    ///   - reason: Why that step no longer applied.
    public init(skippedText: String, reason: String) {
        self.skippedText = skippedText
        self.reason = reason
    }

    /// “Delete “Low” (skipped: it no longer applied)”.
    public var text: String {
        "\(skippedText) (skipped: it no longer applied)"
    }

    /// Does nothing: the step it replaces no longer applies.
    ///
    /// - Parameter library: The receiver.
    public mutating func redo(on library: LibraryAPI) throws {}

    /// Does nothing: the step it replaces no longer applies.
    ///
    /// - Parameter library: The receiver.
    public mutating func undo(on library: LibraryAPI) throws {}
}
