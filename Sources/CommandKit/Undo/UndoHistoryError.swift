/// An error that a history raises when it refuses a call of ``UndoHistory``, carrying the
/// refusal's ``UndoError/Code`` whichever history raised it.
///
/// ``UndoStack`` refuses with ``UndoError``; a storage of its own may refuse with an error type of
/// its own (CommandStore's `DurableHistory` raises `StoreError`, which says which file). Both
/// conform, so code over `some UndoHistory` matches a refusal once, by its code:
///
/// ```swift
/// func undoShownStep(of history: some UndoHistory, shown: (some UndoHistory).Record.ID?) { … }
///
/// do {
///     try history.undo(steps: 1, expecting: shown)
/// } catch UndoError.Code.historyChanged {
///     // the history changed since the view read it: nothing was undone
/// } catch UndoError.Code.nothingToUndo {
///     // fewer steps than asked for
/// }
/// ```
///
/// The codes a conformer maps: ``UndoError/Code/historyChanged``, ``UndoError/Code/nothingToUndo``,
/// ``UndoError/Code/nothingToRedo``, ``UndoError/Code/macroOpen``,
/// ``UndoError/Code/unbalancedGrouping``, ``UndoError/Code/reentrantCall`` and
/// ``UndoError/Code/noSuchStep``. An error that is no refusal (a command's own error, an I/O
/// failure) has none.
public protocol UndoHistoryError: Error {
    /// The refusal's code, or `nil` when the error is not a refusal of the history.
    var undoErrorCode: UndoError.Code? { get }
}

extension UndoError: UndoHistoryError {
    /// The ``code``: every `UndoError` is a refusal of the undo machinery.
    public var undoErrorCode: UndoError.Code? { code }
}

extension UndoError.Code {
    /// Matches any ``UndoHistoryError`` carrying this code (`catch UndoError.Code.historyChanged`),
    /// an ``UndoError`` or another history's error type alike.
    public static func ~= (pattern: UndoError.Code, error: any Error) -> Bool {
        (error as? any UndoHistoryError)?.undoErrorCode == pattern
    }
}
