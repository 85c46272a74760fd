public import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase

#if PostgreSQL
import PostgreSQLCommandStore
import PostgreSQLDatabase
#endif

extension LibraryError.Code {
    /// A stored step no longer applies to the library, which another program changed (a row
    /// edited or deleted with the sqlite3 shell, or with psql for a library on a server): undo or
    /// redo refused it, and ``LibrarySession/repairHistory()`` lets the history go on without it.
    public static let stepNoLongerApplies = LibraryError.Code(rawValue: "step-no-longer-applies")
}

extension LibrarySession {
    /// A step ``LibrarySession/repairHistory()`` set aside.
    public struct RepairedStep: Sendable, Hashable {
        /// The step's number in the history's tree (what `albums undo --to` takes).
        public var step: HistoryNode.ID
        /// The step's text before the repair (“Delete “Low””).
        public var text: String
        /// Why it no longer applied, as its undo or redo said it.
        public var reason: String
        /// Whether it was its undo (rather than its redo) that no longer applied.
        public var wasUndo: Bool
    }

    /// Lets the history go on without the first step that no longer applies: the nearest one
    /// below the current state whose undo fails, else the nearest above it whose redo fails.
    ///
    /// The step is replaced by a ``SkippedStepCommand`` (its text kept, and why it was skipped),
    /// which undo and redo pass over; what the step kept for its undo or redo (an import's staged
    /// albums, a replaced or deleted cover image) is released; every other step, and every album,
    /// stays as it is. Which
    /// step, and whether there is one, is decided inside the write transaction that replaces it,
    /// by running the steps' undos (then redos) in a savepoint that is rolled back.
    ///
    /// On a PostgreSQL server the repair is one change of the history as any other: its write
    /// transaction locks the history's header first, takes a revision and notifies the other
    /// clients, which reread the history.
    ///
    /// - Returns: The step set aside.
    /// - Throws: ``LibraryError/Code/nothingToChange`` when every step applies (nothing is
    ///   written), or a storage error.
    /// - Complexity: O(*k*) steps run (and rolled back) for the *k*-th step from the current state.
    @discardableResult
    public func repairHistory() throws -> RepairedStep {
        #if PostgreSQL
        if let history = history as? PostgreSQLHistory<LibraryAPI> { return try repairHistory(onServer: history) }
        #endif
        var repaired: RepairedStep?
        let database = try database
        guard let history = history as? DurableHistory<LibraryAPI> else {
            preconditionFailure("a library file's session keeps a DurableHistory")
        }
        try database.inTransaction(.immediate) {
            try history.refresh()
            let index = try history.committedIndex()
            let broken = try firstBrokenStep(index: index, count: history.count)
            // What the step kept aside for its undo or redo (staged albums, kept cover images)
            // goes with it: the replaced command's discard action runs in this transaction.
            try history.replaceCommand(
                at: broken.position, with: SkippedStepCommand(skippedText: broken.record.text, reason: broken.reason),
                expecting: broken.record.id)
            repaired = RepairedStep(
                step: try history.node(at: broken.position), text: broken.record.text, reason: broken.reason,
                wasUndo: broken.undoing)
            return .commit
        }
        guard let repaired else { preconditionFailure("the repair's transaction returned without a step") }
        return repaired
    }

    #if PostgreSQL
    /// ``repairHistory()`` on a server: the step is found and replaced in the history's write
    /// transaction (the header locked first, as for any change), which takes a revision and
    /// notifies the other clients.
    private func repairHistory(onServer history: PostgreSQLHistory<LibraryAPI>) throws -> RepairedStep {
        var repaired: RepairedStep?
        try history.replaceCommand { index, count in
            // Run again with the transaction (a serialization failure): decided afresh.
            let broken = try firstBrokenStep(index: index, count: count)
            repaired = RepairedStep(
                step: try history.node(at: broken.position), text: broken.record.text, reason: broken.reason,
                wasUndo: broken.undoing)
            return (broken.position, SkippedStepCommand(skippedText: broken.record.text, reason: broken.reason))
        }
        guard let repaired else { preconditionFailure("the repair's transaction returned without a step") }
        return repaired
    }
    #endif

    /// The nearest step below `index` whose undo fails, else the nearest above whose redo does.
    ///
    /// - Throws: ``LibraryError/Code/nothingToChange`` when every step applies.
    private func firstBrokenStep(index: Int, count: Int) throws -> BrokenStep {
        guard
            let broken = try brokenStep(from: index, undoing: true, limit: index, count: count)
                ?? brokenStep(from: index, undoing: false, limit: count - index, count: count)
        else {
            throw LibraryError(.nothingToChange, "every step of the history applies: nothing to repair")
        }
        return broken
    }

    /// A step that does not apply: where it is, its record, and why.
    struct BrokenStep {
        var position: Int
        var record: HistoryRecord
        var reason: String
        var undoing: Bool
    }

    /// The first of up to `limit` steps from `index` (down when `undoing`, else up) whose undo or
    /// redo throws, each run after the ones before it, all in a savepoint rolled back; `count` is
    /// the history's, as committed where the caller reads it.
    func brokenStep(from index: Int, undoing: Bool, limit: Int, count: Int) throws -> BrokenStep? {
        let positions = Array(
            stride(from: undoing ? index - 1 : index, through: undoing ? 0 : count - 1, by: undoing ? -1 : 1)
                .prefix(max(0, limit)))
        // Outside the history's write transaction (a refusal's look for the step), a server
        // history's reads open transactions of their own, which would end the trial's: its steps
        // are read before it. Inside (a repair), and on a file, each is read as its turn comes.
        let read = readsStepsFirst ? positions.map { position in Result { try history.command(at: position) } } : nil
        let failed: (position: Int, reason: String)? = try inRolledBackSavepoint {
            for (offset, position) in positions.enumerated() {
                do {
                    try run(try read?[offset].get() ?? history.command(at: position), undoing: undoing)
                    // A server library's writes wait for the next statement: sent now, so that
                    // one that fails is this step's.
                    try library.sendDeferredWrites()
                } catch {
                    if Self.endsTransaction(error) { throw error }
                    return (position, Self.reason(error))
                }
            }
            return nil
        }
        return try failed.map {
            BrokenStep(
                position: $0.position, record: try history.record(at: $0.position), reason: $0.reason, undoing: undoing)
        }
    }

    /// Whether ``brokenStep(from:undoing:limit:count:)`` must read the steps before its trial: on a
    /// server, outside a transaction.
    private var readsStepsFirst: Bool {
        #if PostgreSQL
        if let server = library.server { return !server.connection.hasOpenTransaction }
        #endif
        return false
    }

    /// Runs `body` in a savepoint of the library's database that is rolled back (a transaction
    /// rolled back, outside one): a trial run of steps that writes nothing.
    private func inRolledBackSavepoint<T>(_ body: () throws -> T) throws -> T {
        switch library.store {
        case .file(let database):
            var result: Result<T, any Error>?
            try database.inSavepoint {
                result = Result { try body() }
                return .rollback
            }
            guard let result else { preconditionFailure("the savepoint returned without running its body") }
            return try result.get()
        #if PostgreSQL
        case .server(let server):
            return try server.connection.inRolledBackSavepoint(body)
        #endif
        }
    }

    /// Whether an error ends the transaction it happened in (the server's serialization failure
    /// or a lost connection): it is the transaction's, not a step's, and is rethrown.
    private static func endsTransaction(_ error: any Error) -> Bool {
        #if PostgreSQL
        if let error = error as? PostgreSQLError {
            return error.code == .serializationFailure || error.code == .connectionLost
        }
        #endif
        return false
    }

    /// Runs a stored step's undo or redo on the library: a macro's children in reverse order for
    /// an undo, in order for a redo, as the history runs them.
    private func run(_ step: DurableCommand<LibraryAPI>, undoing: Bool) throws {
        switch step {
        case .command(var command):
            if undoing { try command.undo(on: library) } else { try command.redo(on: library) }
        case .macro(_, let children):
            for child in undoing ? children.reversed() : children { try run(child, undoing: undoing) }
        }
    }

    /// The refusal of an undo or redo of `count` steps that failed with `error`, naming the step
    /// that no longer applies and the way out; `error` itself when every step applies.
    func refusal(afterFailed error: any Error, undoing: Bool, count: Int) -> any Error {
        // A lost connection or a serialization failure says nothing of the steps: passed on as is.
        guard !(error is StoreError), !Self.endsTransaction(error),
            ![.historyChanged, .nothingToUndo, .nothingToRedo].contains((error as? LibraryError)?.code),
            let index = try? history.committedIndex(),
            let broken = try? brokenStep(from: index, undoing: undoing, limit: count, count: history.count)
        else { return error }
        return Self.stepRefusal(
            step: try? history.node(at: broken.position), text: broken.record.text, undoing: undoing,
            reason: broken.reason)
    }

    /// The refusal of a jump (`undo --to`) whose step `error` names failed: the same words as
    /// ``refusal(afterFailed:undoing:count:)``'s; `error` itself for any other failure.
    func refusal(afterFailedJump error: HistoryJumpError) -> any Error {
        guard !(error.error is StoreError) else { return error }
        // Off the current path (a branch the jump was to redo), repair cannot reach the step.
        let onPath = (try? history.nodes().first { $0.id == error.step })?.isOnPath ?? true
        return Self.stepRefusal(
            step: error.step, text: error.text, undoing: error.wasUndoing, reason: Self.reason(error.error),
            onPath: error.wasUndoing || onPath)
    }

    /// "cannot undo step 2 “Delete “X””: why; the library was changed outside albums since (…)".
    static func stepRefusal(
        step: HistoryNode.ID?, text: String, undoing: Bool, reason: String, onPath: Bool = true
    ) -> LibraryError {
        let number = step.map { "step \($0) " } ?? ""
        let remedy =
            onPath
            ? "(`albums history --repair` lets the history go on without this step)"
            : "(the steps of that branch can no longer be redone)"
        return LibraryError(
            .stepNoLongerApplies,
            "cannot \(undoing ? "undo" : "redo") \(number)“\(text)”: \(reason); "
                + "the library was changed outside albums since \(remedy)"
        )
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as LibraryError: error.message
        case let error as DatabaseError: error.message
        case let error as StoreError: error.message
        #if PostgreSQL
        case let error as PostgreSQLError: error.message
        #endif
        default: "\(error)"
        }
    }
}
