public import CommandKit
public import CommandStore

/// The durable history a ``LibrarySession`` changes its library through: CommandStore's
/// `DurableHistory` for a library file, PostgreSQLCommandStore's `PostgreSQLHistory` for a library
/// on a PostgreSQL server (with the `PostgreSQL` trait).
///
/// Both keep each change and its history record in one transaction of their database, decide
/// every step inside it, keep branches (time travel) and record authors: the session's changes,
/// undo mine and jumps read and write through these members only, so they mean the same on either.
/// (A repair, ``LibrarySession/repairHistory()``, uses each history's own `replaceCommand`, which
/// decides the step inside its write transaction.)
public protocol LibraryHistory: UndoHistory
where Command == DurableCommand<LibraryAPI>, Record == HistoryRecord {
    /// Who records the next steps; `nil` names nobody.
    var author: String? { get set }
    /// A number that grows with every commit to the history, by any client.
    var revision: Int { get }

    /// Pushes the command `makeCommand` makes inside the history's write transaction.
    func push<Command: PersistentCommand>(
        _ makeCommand: () throws -> Command
    ) throws -> Command where Command.Receiver == LibraryAPI
    /// Undoes `steps` steps in one transaction, refused unless the first is `expected` (when given).
    func undo(steps: Int, expecting expected: HistoryRecord.ID?) throws -> [HistoryRecord]
    /// Redoes `steps` steps in one transaction, refused unless the first is `expected` (when given).
    func redo(steps: Int, expecting expected: HistoryRecord.ID?) throws -> [HistoryRecord]
    /// Every step's record with its node, the index and the revision, read in one transaction.
    func records() throws -> (records: [HistoryRecord], nodes: [HistoryNode.ID], index: Int, revision: Int)
    /// The record of the step at a position.
    func record(at position: Int) throws -> HistoryRecord
    /// The command of the step at a position, decoded from its row.
    func command(at position: Int) throws -> DurableCommand<LibraryAPI>
    /// The number of steps done, as committed now (inside an operation, of the state it changes).
    func committedIndex() throws -> Int
    /// Rereads the history when another client committed since the last call.
    func refresh() throws -> Bool
    /// Rereads the history if another client committed since the last look, as cheaply as the
    /// storage allows: what a view calls while idle, many times a second.
    func followOtherClients() throws -> Bool
    /// The node of the step at a position.
    func node(at position: Int) throws -> HistoryNode.ID
    /// Every node of the tree and the current one, in one snapshot.
    func tree() throws -> (nodes: [HistoryNode], current: HistoryNode.ID)
    /// Moves to any node of the tree in one transaction.
    func jump(to node: HistoryNode.ID, expecting expected: HistoryNode.ID?) throws -> HistoryJump
    /// Moves to the newest state recorded at or before a time, in one transaction.
    func jump(toStateRecordedAtOrBefore time: Int64) throws -> (node: HistoryNode.ID, jump: HistoryJump)
    /// Calls `handler` after every change of the history's state.
    @discardableResult
    func addChangeHandler(_ handler: @escaping (UndoChange) -> Void) -> UndoChangeHandlerToken
}

extension DurableHistory: LibraryHistory where Receiver == LibraryAPI {
    /// One `PRAGMA data_version` when nothing changed: `DurableHistory.refresh()`.
    public func followOtherClients() throws -> Bool {
        try refresh()
    }
}
