public import CommandKit
import CommandStore

/// Where `albums undo --to` goes: a step of the history's tree, or the state at a time.
public enum HistoryTarget: Sendable, Hashable {
    /// A step by its number (as `albums history` shows it; 0 is the state before every step).
    case step(HistoryNode.ID)
    /// The state at a time, in milliseconds since 1970 (UTC): the newest step recorded then or before.
    case time(Int64)
}

/// The library's history is a tree (time travel): every step ever made stays reachable.
extension LibrarySession {
    /// Every step of the tree, oldest first, with its parent and time, and the current step, read
    /// in one snapshot.
    public func historyTree() throws -> (nodes: [HistoryNode], current: HistoryNode.ID) {
        try history.tree()
    }

    /// Moves the library to any state of its history, on any branch, in one transaction.
    ///
    /// Which state a time names is decided inside the transaction, from what is committed then.
    ///
    /// - Parameters:
    ///   - target: The step, or the time.
    ///   - expected: The current step the caller showed, or `nil`: refused, changing nothing, when
    ///     another step is current.
    /// - Returns: The state reached, and the steps undone and redone.
    /// - Throws: ``LibraryError/Code/nothingToChange`` when the library is at that state already,
    ///   ``LibraryError/Code/noSuchStep`` for a step not in the tree,
    ///   ``LibraryError/Code/historyChanged``, ``LibraryError/Code/stepNoLongerApplies`` naming the
    ///   step when one failed (a `HistoryJumpError` when the store failed; nothing of the jump
    ///   stays), or a storage error.
    @discardableResult
    public func jump(
        to target: HistoryTarget, expecting expected: HistoryNode.ID? = nil
    ) throws -> (node: HistoryNode.ID, jump: HistoryJump) {
        let reached: (node: HistoryNode.ID, jump: HistoryJump)
        do {
            switch target {
            case .step(let node):
                reached = (node, try history.jump(to: node, expecting: expected))
            case .time(let time):
                reached = try history.jump(toStateRecordedAtOrBefore: time)
            }
        } catch let error as UndoError where error.code == .noSuchStep {
            guard case .step(let node) = target else { throw error }
            throw LibraryError(.noSuchStep, "there is no step \(node) in the history (see albums history --tree)")
        } catch let error as StoreError where error.code == .historyChanged {
            throw LibraryError(.historyChanged, error.message)
        } catch let error as HistoryJumpError {
            // A step that no longer applies is named as plain undo and redo name it.
            throw refusal(afterFailedJump: error)
        }
        // Refused as a no-op, like an edit or a move that changes nothing: the transaction wrote
        // nothing and took no revision.
        guard !reached.jump.undone.isEmpty || !reached.jump.redone.isEmpty else {
            throw LibraryError(
                .nothingToChange, "the library is already at step \(reached.node): nothing to undo or redo")
        }
        return reached
    }
}
