package import CommandKit

/// What the storage of an ``EngineBackedHistory`` answers beyond `HistoryStorage`: the records a
/// history reports, and the step counts that let a counted undo or redo refuse before it runs a
/// command. Implemented by the SQLite storage and by PostgreSQLCommandStore's.
package protocol DurableHistoryStorage: HistoryStorage, AnyObject where Entry == DurableEntry {
    /// The undo limit stored with the history (the engine keeps its own copy).
    var undoLimit: Int { get set }

    /// What the history holds about the entry at a position: its identity, texts, time and author.
    func record(at position: Int) throws -> HistoryRecord

    /// The steps below the index: what the engine's `undo()` could undo one after the other.
    func undoableSteps() throws -> Int

    /// The most steps a redo could take now, counted without reading steps: a count above it is
    /// sure to be refused.
    func redoableEntriesAtMost() throws -> Int

    /// The steps a redo could take one after the other: the path's above the index, then, in a
    /// tree, those the branches a redo follows would bring onto it.
    func redoableSteps() throws -> Int
}
