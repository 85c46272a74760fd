public import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase

extension LibraryError.Code {
    /// A stored step no longer applies to the library, which another program changed (a row
    /// edited or deleted with the sqlite3 shell): undo or redo refused it, and
    /// ``LibrarySession/repairHistory()`` lets the history go on without it.
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
    /// - Returns: The step set aside.
    /// - Throws: ``LibraryError/Code/nothingToChange`` when every step applies (nothing is
    ///   written), ``LibraryError/Code/unsupported`` for a library on a PostgreSQL server, or a
    ///   storage error.
    /// - Complexity: O(*k*) steps run (and rolled back) for the *k*-th step from the current state.
    @discardableResult
    public func repairHistory() throws -> RepairedStep {
        #if PostgreSQL
        if library.server != nil {
            throw LibraryError(
                .unsupported,
                "\(path) is a library on a PostgreSQL server, whose history cannot be "
                    + "repaired by albums yet: a step that no longer applies (its tables changed outside albums) is "
                    + "refused by undo and redo, and changes nothing")
        }
        #endif
        var repaired: RepairedStep?
        let database = try database
        guard let history = history as? DurableHistory<LibraryAPI> else {
            preconditionFailure("a library file's session keeps a DurableHistory")
        }
        try database.inTransaction(.immediate) {
            try history.refresh()
            let index = try history.committedIndex()
            guard
                let broken = try brokenStep(from: index, undoing: true, limit: index)
                    ?? brokenStep(from: index, undoing: false, limit: history.count - index)
            else {
                throw LibraryError(.nothingToChange, "every step of the history applies: nothing to repair")
            }
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

    /// A step that does not apply: where it is, its record, and why.
    struct BrokenStep {
        var position: Int
        var record: HistoryRecord
        var reason: String
        var undoing: Bool
    }

    /// The first of up to `limit` steps from `index` (down when `undoing`, else up) whose undo or
    /// redo throws, each run after the ones before it, all in a savepoint rolled back.
    func brokenStep(from index: Int, undoing: Bool, limit: Int) throws -> BrokenStep? {
        var found: BrokenStep?
        try database.inSavepoint {
            var position = undoing ? index - 1 : index
            for _ in 0..<max(0, limit) {
                guard (0..<history.count).contains(position) else { break }
                do {
                    try run(try history.command(at: position), undoing: undoing)
                } catch {
                    found = BrokenStep(
                        position: position, record: try history.record(at: position), reason: Self.reason(error),
                        undoing: undoing)
                    break
                }
                position += undoing ? -1 : 1
            }
            return .rollback
        }
        return found
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
        guard !(error is StoreError),
            ![.historyChanged, .nothingToUndo, .nothingToRedo].contains((error as? LibraryError)?.code),
            let index = try? history.committedIndex(),
            let broken = try? brokenStep(from: index, undoing: undoing, limit: count)
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
        default: "\(error)"
        }
    }
}
