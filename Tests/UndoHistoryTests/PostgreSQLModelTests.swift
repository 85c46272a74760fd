#if PostgreSQL
import CommandKit
import CommandStore
import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import TestSupport
import Testing

/// Model-based randomized test: random sequences of pushes (significant or not), undos, redos,
/// counted undos and redos, jumps, macros, clean marks, limits, clears and failing commands run on
/// the PostgreSQL history and on `DurableHistory` (SQLite, the oracle), compared after every
/// step: the state with its texts, every entry's text, the receiver's lines, and whether the call
/// threw. Both roll a failed call back whole, so they must agree exactly. The seed is printed.
@Suite(
    .enabled(
        if: PostgreSQLTestServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLModelTests {
    static let seed: UInt64 = 0x5EED_2026_1202
    static let sequences = 40

    @Test func randomSequencesMatchTheSQLiteHistory() throws {
        try runSequences(seed: Self.seed, branching: false)
    }

    /// The same with branches kept on both (time travel): jumps to any node, on any branch, and
    /// to the chronological neighbours too; after every step the trees must be the same.
    @Test func randomBranchingSequencesMatchTheSQLiteHistory() throws {
        try runSequences(seed: Self.branchingSeed, branching: true)
    }

    static let branchingSeed: UInt64 = 0x7EE5_2026_1205

    func runSequences(seed: UInt64, branching: Bool) throws {
        print("PostgreSQLModelTests seed=\(seed) sequences=\(Self.sequences) branching=\(branching)")
        var checked = 0
        for sequence in 0..<Self.sequences {
            let real = try PostgreSQLFixture(keepsBranches: branching)
            defer { real.remove() }
            let oracle = try DurableFixture(keepsBranches: branching)
            defer { oracle.remove() }
            let sequenceSeed = seed &+ UInt64(sequence)
            let failure = try run(
                seed: sequenceSeed, branching: branching, real: real, oracle: oracle, checked: &checked)
            if let failure {
                Issue.record("seed=\(sequenceSeed) (sequence \(sequence), branching: \(branching)): \(failure)")
                return
            }
        }
        #expect(checked > Self.sequences * 10)
    }

    /// One sequence; the description of the first disagreement, or `nil`.
    func run(
        seed: UInt64, branching: Bool, real: PostgreSQLFixture, oracle: DurableFixture, checked: inout Int
    ) throws -> String? {
        let history = real.history
        let lines = real.store
        var random = SplitMix64(seed: seed)
        var log: [String] = []
        var next = 1
        let steps = Int(random.next() % (branching ? 80 : 40)) + 10

        func compare() throws -> String? {
            checked += 1
            let (real, model) = (history.state, oracle.history.state)
            if real != model { return "state \(real) != oracle \(model)" }
            let texts = try (0..<history.count).map { try history.text(at: $0) }
            let modelTexts = try (0..<oracle.history.count).map { try oracle.history.text(at: $0) }
            if texts != modelTexts { return "texts \(texts) != oracle \(modelTexts)" }
            if try lines.lines() != oracle.store.lines() {
                return "lines \(try lines.lines()) != oracle \(try oracle.store.lines())"
            }
            if history.undoRecord?.text != oracle.history.undoRecord?.text { return "undo records differ" }
            guard branching else { return nil }
            if history.keepsBranches != oracle.history.keepsBranches { return "keepsBranches differs" }
            if history.currentNode != oracle.history.currentNode {
                return "current node \(history.currentNode) != oracle \(oracle.history.currentNode)"
            }
            let (tree, modelTree) = (try history.nodes().map(Self.shape), try oracle.history.nodes().map(Self.shape))
            if tree != modelTree { return "tree \(tree) != oracle \(modelTree)" }
            return nil
        }

        func both(_ name: String, _ real: () throws -> Void, _ model: () throws -> Void) -> String? {
            log.append(name)
            var realError: (any Error)?
            var modelError: (any Error)?
            do { try real() } catch { realError = error }
            do { try model() } catch { modelError = error }
            if (realError == nil) != (modelError == nil) {
                return
                    "\(name): PostgreSQL threw \(String(describing: realError)), SQLite threw \(String(describing: modelError))"
            }
            if let realError, let modelError, code(realError) != code(modelError) {
                return "\(name): PostgreSQL threw \(realError), SQLite threw \(modelError)"
            }
            return nil
        }

        for _ in 0..<steps {
            let roll = random.next() % (branching ? 112 : 100)
            var mismatch: String?
            switch roll {
            case 0..<36:
                let line = "l\(next)"
                let significant = random.next() % 6 != 0
                next += 1
                mismatch = both(
                    "push \(line)\(significant ? "" : " (insignificant)")",
                    { try history.push(PostgreSQLLine(line: line, significant: significant)) },
                    { try oracle.history.push(StoredLine(line: line, significant: significant)) })
            case 36..<48:
                mismatch = both("undo", { try history.undo() }, { try oracle.history.undo() })
            case 48..<53:
                let k = Int(random.next() % 3) + 1
                mismatch = both(
                    "undo \(k) steps", { try history.undo(steps: k) }, { try oracle.history.undo(steps: k) })
            case 53..<62:
                mismatch = both("redo", { try history.redo() }, { try oracle.history.redo() })
            case 62..<66:
                let k = Int(random.next() % 3) + 1
                mismatch = both(
                    "redo \(k) steps", { try history.redo(steps: k) }, { try oracle.history.redo(steps: k) })
            case 66..<71:
                let target = Int(random.next() % UInt64(oracle.history.count + 3)) - 1
                mismatch = both(
                    "jump \(target)", { try history.setIndex(target) }, { try oracle.history.setIndex(target) })
            case 71..<77:
                let text = "M\(next)"
                mismatch = both(
                    "begin \(text)", { try history.beginMacro(text) }, { try oracle.history.beginMacro(text) })
            case 77..<84:
                mismatch = both("end", { try history.endMacro() }, { try oracle.history.endMacro() })
            case 84..<88:
                mismatch = both("setClean", { try history.setClean() }, { try oracle.history.setClean() })
            case 88..<90:
                mismatch = both("resetClean", { try history.resetClean() }, { try oracle.history.resetClean() })
            case 90..<91:
                mismatch = both("clear", { try history.clear() }, { try oracle.history.clear() })
            case 91..<95:
                let limit = Int(random.next() % 6)
                mismatch = both(
                    "limit \(limit)", { try history.setUndoLimit(limit) }, { try oracle.history.setUndoLimit(limit) })
            case 100..<107:
                let nodes = [HistoryNode.ID.root] + (try oracle.history.nodes().map(\.id))
                let pick = Int(random.next() % UInt64(nodes.count + 1))
                // One pick in n + 1 is a node that is not in the tree.
                let target = pick < nodes.count ? nodes[pick] : HistoryNode.ID((nodes.last?.rawValue ?? 0) + 7)
                var jumps: (real: HistoryJump?, model: HistoryJump?)
                mismatch = both(
                    "jump to \(target)",
                    { jumps.real = try history.jump(to: target, expecting: history.currentNode) },
                    { jumps.model = try oracle.history.jump(to: target, expecting: oracle.history.currentNode) })
                if mismatch == nil, let real = jumps.real, let model = jumps.model,
                    real.undone.map(\.id) != model.undone.map(\.id) || real.redone.map(\.id) != model.redone.map(\.id)
                {
                    mismatch = "jump to \(target): \(real) != oracle \(model)"
                }
            case 107..<112:
                let before = random.next() % 2 == 0
                let target = try oracle.history.chronologicalNeighbor(before: before)
                if try history.chronologicalNeighbor(before: before) != target {
                    mismatch = "chronological neighbour (before: \(before)) differs"
                } else if let target {
                    mismatch = both(
                        before ? "g-" : "g+", { try history.jump(to: target) }, { try oracle.history.jump(to: target) })
                }
            default:
                let countdown = Int(random.next() % 3) + 1
                log.append("fail in \(countdown)")
                lines.failCountdown = countdown
                oracle.store.failCountdown = countdown
            }
            if let mismatch { return "\(mismatch)\n  ops: \(log.joined(separator: ", "))" }
            if let mismatch = try compare() {
                return "after \(log.last ?? ""): \(mismatch)\n  ops: \(log.joined(separator: ", "))"
            }
        }
        // Close what is open, stop failures, then undo and redo everything.
        lines.failCountdown = 0
        oracle.store.failCountdown = 0
        while oracle.history.macroDepth > 0 {
            if let m = both("end", { try history.endMacro() }, { try oracle.history.endMacro() }) { return m }
        }
        while oracle.history.canUndo {
            if let m = both("undo", { try history.undo() }, { try oracle.history.undo() }) { return m }
            if let mismatch = try compare() { return "undoing all: \(mismatch)\n  ops: \(log.joined(separator: ", "))" }
        }
        while oracle.history.canRedo {
            if let m = both("redo", { try history.redo() }, { try oracle.history.redo() }) { return m }
            if let mismatch = try compare() { return "redoing all: \(mismatch)\n  ops: \(log.joined(separator: ", "))" }
        }
        return nil
    }

    /// What two histories must agree on about a node (not its time).
    static func shape(_ node: HistoryNode) -> String {
        "\(node.id)<\(node.parent) \(node.text)/\(node.actionText)\(node.isOnPath ? "" : " parked")"
    }

    private func code(_ error: any Error) -> String {
        if let refusal = (error as? any UndoHistoryError)?.undoErrorCode { return "\(refusal)" }
        if error is LineFailure || error is PostgreSQLLines.Failure { return "line failure" }
        return "\(type(of: error))"
    }
}
#endif
