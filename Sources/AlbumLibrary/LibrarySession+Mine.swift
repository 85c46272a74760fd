import CommandKit
public import CommandStore
import Foundation

/// "Undo mine": an author undoes their own latest change even when others changed the library
/// after it, if and only if none of those later changes touched what it touched.
///
/// Everything is decided inside the write transaction, from what is committed then: which step is
/// the author's latest, whether a later step overlaps it (``AlbumFootprint``), and where a
/// deleted album goes back (its position rebased over the later steps). A step the author already
/// undid this way is skipped, so pressing "undo mine" again goes further back; "redo mine" redoes
/// the next step to redo when it is the author's (what a plain "undo mine" of their last step
/// left there), and otherwise does the author's latest "undo mine" again.
extension LibrarySession {
    /// What an undo or redo of one's own step did.
    public enum MineResult: Sendable, Hashable {
        /// A new step that reverts (or re-applies) an older one; the steps after that one stay.
        case reverted(RevertStepCommand)
        /// The author's change was the last step: it was undone as ``undo(count:expecting:)`` does.
        case undone(HistoryRecord)
        /// The next step to redo was the author's: it was redone as ``redo(count:expecting:)`` does.
        case redone(HistoryRecord)

        /// The history text of what was undone or done again.
        public var text: String {
            switch self {
            case .reverted(let command): command.text
            case .undone(let record), .redone(let record): record.text
            }
        }
    }

    /// Undoes `author`'s latest change that is not undone yet, whatever other authors did after it,
    /// if none of their later changes touched the same album parts.
    ///
    /// - Parameter author: The author whose change to undo (as recorded, `HistoryRecord.author`).
    /// - Returns: What was done: a new step reverting the change, or a plain undo when the change
    ///   is the last step.
    /// - Throws: ``LibraryError/Code/nothingToUndo`` when the author has no change to undo;
    ///   ``LibraryError/Code/conflict`` naming who changed what after it (nothing changes then).
    @discardableResult
    public func undoMine(author: String) throws -> MineResult {
        try mine(author: author, reapplying: false)
    }

    /// Redoes `author`'s undone change: the next step to redo when it is theirs (as
    /// ``redo(count:expecting:)`` would), else their latest "undo mine" again (the change it undid
    /// comes back), under the same rule: refused when a later change touched the same album parts.
    ///
    /// - Parameter author: The author.
    /// - Returns: What was done.
    /// - Throws: ``LibraryError/Code/nothingToRedo`` when the author has no undone change to
    ///   redo; ``LibraryError/Code/conflict`` as ``undoMine(author:)``.
    @discardableResult
    public func redoMine(author: String) throws -> MineResult {
        try mine(author: author, reapplying: true)
    }

    /// What ``undoMine(author:)`` or ``redoMine(author:)`` would do now, for a button's title:
    /// "Undo your Delete “Best of Bowie”", or why it would be refused.
    public enum MinePreview: Sendable, Hashable {
        /// It would undo (or do again) the change with this history text ("Delete “X”").
        case change(String)
        /// It would be refused with this error (nothing of the author's to undo, or a conflict).
        case refused(LibraryError)
    }

    /// What ``undoMine(author:)`` (or, with `reapplying`, ``redoMine(author:)``) would do if it ran
    /// now, decided by the same scan in one read transaction; nothing is written.
    ///
    /// Only a preview: the real call decides again inside its write transaction, from what is
    /// committed then. A caller showing the result caches it per `DurableHistory.revision`.
    ///
    /// - Parameters:
    ///   - author: The author.
    ///   - reapplying: `true` for what a redo mine would do.
    /// - Returns: The change's text, or the refusal.
    /// - Throws: A storage error (a refusal is a result, not an error).
    /// - Complexity: O(*k*) for a change *k* steps behind the top, as the call itself.
    public func previewMine(author: String, reapplying: Bool = false) throws -> MinePreview {
        var preview: MinePreview?
        // One snapshot for the whole scan on a file: each read inside is a savepoint of this
        // transaction. On a server each read takes its own snapshot: a preview only, decided again
        // by the call itself.
        try inReadSnapshot {
            if reapplying, let next = try nextRedoRecord(), next.author == author {
                preview = .change(next.text)
                return
            }
            do {
                preview = .change(try revertCommand(author: author, reapplying: reapplying).change.text)
            } catch let plain as UndoPlainly {
                preview = .change(plain.record.text)
            } catch let refusal as LibraryError
                where refusal.code == .nothingToUndo || refusal.code == .nothingToRedo || refusal.code == .conflict
            {
                preview = .refused(refusal)
            }
        }
        return preview!
    }

    /// A step found plain to undo (the author's, and the last): undone outside `push`, expecting it.
    private struct UndoPlainly: Error {
        var record: HistoryRecord
    }

    /// The next step to redo, found to be the author's: redone outside `push`, expecting it.
    private struct RedoPlainly: Error {
        var record: HistoryRecord
    }

    private func mine(author: String, reapplying: Bool, attempt: Int = 1) throws -> MineResult {
        do {
            return .reverted(
                try push {
                    // Decided inside the transaction, from what is committed then: whether the next
                    // step to redo is the author's (a plain redo) or a revert is pushed.
                    if reapplying, let next = try nextRedoRecord(), next.author == author {
                        throw RedoPlainly(record: next)
                    }
                    return try revertCommand(author: author, reapplying: reapplying)
                })
        } catch let plain as RedoPlainly {
            // Redone in a transaction of its own, expecting the step found: when another process
            // committed in between, it is refused and the decision made again.
            do {
                guard let record = try redo(count: 1, expecting: plain.record.id).first else {
                    throw LibraryError(.nothingToRedo, "\(author) has no undone change to redo")
                }
                return .redone(record)
            } catch let error as LibraryError where error.code == .historyChanged && attempt < Self.attempts {
                return try mine(author: author, reapplying: reapplying, attempt: attempt + 1)
            }
        } catch let plain as UndoPlainly {
            // The plain undo runs in a transaction of its own, expecting the step the scan found:
            // when another process committed in between, it is refused and the decision made again.
            do {
                guard let record = try undo(count: 1, expecting: plain.record.id).first else {
                    throw LibraryError(.nothingToUndo, "\(author) has no change to undo")
                }
                return .undone(record)
            } catch let error as LibraryError where error.code == .historyChanged && attempt < Self.attempts {
                return try mine(author: author, reapplying: reapplying, attempt: attempt + 1)
            }
        } catch let error as LibraryError where Self.decided.contains(error.code) {
            throw error
        } catch {
            // The revert failed on the library: an outside edit broke a step it runs over. Named
            // as plain undo names it (the first step whose undo fails, from the top).
            throw refusal(afterFailed: error, undoing: true, count: (try? history.committedIndex()) ?? 0)
        }
    }

    /// Refusals the scan itself decides, passed on as they are.
    private static let decided: [LibraryError.Code] = [.conflict, .nothingToUndo, .nothingToRedo, .historyChanged]

    /// The record of the step a redo would redo now, or `nil` when there is none.
    private func nextRedoRecord() throws -> HistoryRecord? {
        let index = try history.committedIndex()
        do {
            return try history.record(at: index)
        } catch let error as StoreError where error.code == .historyChanged {
            return nil  // nothing after the current step
        }
    }

    /// How many times "undo mine" decides again when another process commits between its scan and
    /// its plain undo.
    private static let attempts = 8

    /// A step after the author's change, as the scan met it.
    private struct Later {
        var step: AlbumStep
        var position: Int
        var node: Int
    }

    /// Inside the push's transaction: finds the step, checks the later ones, rebases the position.
    private func revertCommand(author: String, reapplying: Bool) throws -> RevertStepCommand {
        // Every record and node in one read (no payloads); only the steps scanned are decoded.
        let path = try history.records()
        let index = path.index
        // An author with no step on the path has nothing to take back, and one with no undo mine
        // (a revert, or a macro, which might hold one) nothing to bring back: said without decoding
        // the history (a page asks for both previews on every load, for every name).
        guard
            path.records[..<index].contains(where: {
                $0.author == author && (!reapplying || $0.kind == nil || $0.kind == RevertStepCommand.kind)
            })
        else { throw nothing(author, reapplying) }
        // From the top down: each later step, and the nodes whose effect a later "undo mine" or
        // "redo mine" that still stands cancels.
        var later: [Later] = []
        var cancelled: Set<Int> = []
        for position in stride(from: index - 1, through: 0, by: -1) {
            let node = path.nodes[position].rawValue
            let record = path.records[position]
            let step = AlbumStep(try history.command(at: position))
            defer { later.append(Later(step: step, position: position, node: node)) }
            if cancelled.contains(node) { continue }
            if case .revert(let revert) = step { cancelled.insert(revert.cancels) }
            guard record.author == author else { continue }
            // The author's change is the last step: a plain undo (a redo can bring it back).
            if !reapplying, later.isEmpty, !step.isRevert { throw UndoPlainly(record: record) }
            let change: RevertStepCommand.Change
            let original: Int
            // Where the album was when this step ran: the place a rebased insertion starts from.
            // For a move, where it was before the step (`base`) and after it (`placed`).
            let base: Int
            var placed: Int?
            switch (step, reapplying) {
            case (.revert(let revert), true) where !revert.reapplies:
                change = revert.change
                original = revert.step
                base = revert.origin ?? revert.position
                placed = revert.position
            case (.revert, _): continue  // an undo mine is not a change to undo; a redo mine not one to redo
            case (.add(let add), false):
                change = .add(add)
                original = node
                base = add.position
            case (.delete(let delete), false) where delete.album != nil:
                change = .delete(delete)
                original = node
                base = delete.position
            case (.edit(let edit), false) where edit.before != nil:
                change = .edit(edit)
                original = node
                base = 0
            case (.cover(let cover), false):
                change = .cover(cover)
                original = node
                base = 0
            case (.move(let move), false) where move.albumID != nil:
                change = .move(move)
                original = node
                base = move.from
                placed = move.to
            case (_, false):
                // An import, a replacement (or a move recorded without its album): undone only as
                // the last step.
                throw LibraryError(
                    .conflict,
                    "your \(step.noun) (step \(node)) can be undone only as the last step: \(later.count) later step(s) follow it"
                )
            case (_, true): continue
            }
            let chronological = Array(later.reversed())
            try checkNoConflict(change.step, later: chronological, cancelled: cancelled)
            if case .move(let move) = change, let placed, let id = move.albumID {
                return try revertingMove(
                    move, of: id, to: base, placed: placed, later: chronological,
                    step: original, cancels: node, reapplying: reapplying)
            }
            return RevertStepCommand(
                change: change, step: original, cancels: node, reapplies: reapplying,
                position: try rebasedPosition(of: change, from: base, reapplying: reapplying, later: chronological))
        }
        throw nothing(author, reapplying)
    }

    private func nothing(_ author: String, _ reapplying: Bool) -> LibraryError {
        reapplying
            ? LibraryError(.nothingToRedo, "\(author) has no undone change to redo")
            : LibraryError(.nothingToUndo, "\(author) has no change to undo")
    }

    /// Refuses when a step after the author's touched what it touched, naming who and what.
    ///
    /// A later step whose effect is cancelled, and the undo or redo mine cancelling it, together
    /// change nothing: neither counts.
    private func checkNoConflict(_ mine: AlbumStep, later: [Later], cancelled: Set<Int>) throws {
        let footprint = mine.footprint
        let laterNodes = Set(later.map(\.node))
        for step in later {
            if cancelled.contains(step.node) { continue }
            if case .revert(let revert) = step.step, laterNodes.contains(revert.cancels) { continue }
            guard let parts = footprint.overlap(with: step.step.footprint) else { continue }
            let who = try history.record(at: step.position).author ?? "someone"
            throw LibraryError(
                .conflict,
                "\(who) \(step.step.verb(for: parts)) “\(Self.title(of: mine))” after your \(mine.noun) (step \(step.node))"
            )
        }
    }

    /// The position the change's album goes back to (or is at), in the library as it is now: an
    /// insertion's place (`base`, where the album was when the step found ran) is rebased over the
    /// later steps and kept within the library's end.
    private func rebasedPosition(
        of change: RevertStepCommand.Change, from base: Int, reapplying: Bool, later: [Later]
    ) throws -> Int {
        let end = try library.count() + 1
        let rebased = min(later.reduce(base) { $1.step.shifted($0) }, end)
        switch change {
        case .edit, .move, .cover: return 0
        // Reverting an add (doing a delete again) removes the album where it is now.
        case .add(let add): return reapplying ? rebased : try library.position(of: add.album.id) ?? rebased
        case .delete(let delete):
            guard reapplying, let album = delete.album else { return rebased }
            return try library.position(of: album.id) ?? rebased
        }
    }

    /// The step that takes a moved album back to where a step found it (`base`, as it was before
    /// that step, which left it at `placed`), rebased over the later steps: none of them moved it
    /// or removed it (the conflict check made sure), so it is back between the same neighbours,
    /// whatever was added or removed around it since.
    private func revertingMove(
        _ move: MoveAlbumCommand, of id: UUID, to base: Int, placed: Int, later: [Later],
        step: Int, cancels: Int, reapplying: Bool
    ) throws -> RevertStepCommand {
        guard let current = try library.position(of: id) else {
            throw LibraryError(.conflict, "“\(move.title ?? "the album")” is no longer in the library")
        }
        // `target` is a place among the other albums (the list without this one), `at` this
        // album's place in the whole list; each later insertion or removal moves one or both.
        // A later move of this album that was taken back since (the pair cancels out, so it is
        // no conflict) takes it out and puts it in again: that moves `at` only.
        var target = base
        var at = placed
        var isOut = false
        for step in later {
            for effect in step.step.positionEffects {
                switch effect {
                case .removed(let place) where place == at && !isOut:
                    isOut = true
                case .inserted(let place) where isOut:
                    isOut = false
                    at = place
                case .inserted(let place):
                    let among = place <= at ? place : place - 1
                    if among <= target { target += 1 }
                    if place <= at { at += 1 }
                case .removed(let place):
                    let among = place < at ? place : place - 1
                    if among < target { target -= 1 }
                    if place < at { at -= 1 }
                }
            }
        }
        let count = try library.count()
        return RevertStepCommand(
            change: .move(move), step: step, cancels: cancels, reapplies: reapplying,
            position: min(max(target, 1), count), origin: current)
    }

    private static func title(of step: AlbumStep) -> String {
        switch step {
        case .add(let add): add.album.title
        case .delete(let delete): delete.album?.title ?? "album \(delete.position)"
        case .edit(let edit): edit.before?.title ?? "album \(edit.position)"
        case .revert(let revert): title(of: revert.change.step)
        case .move(let move): move.title ?? "album \(move.to)"
        case .cover(let cover): cover.title
        default: "the library"
        }
    }
}
