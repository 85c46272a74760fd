import Foundation

/// Checks one recorded round against ``LibraryModel``, in the spirit of Jepsen's history checkers.
///
/// The acknowledged operations (exit 0) are put in the order of their commits, by the revision
/// each printed (or, for an `albums` that prints none, by the order its commit gates were seen,
/// test-only), and replayed on the model. The checker requires:
///
/// - every acknowledged operation printed exactly what the model returns at its place in that
///   order (title, id, position, step text, steps undone or redone, count, revision), and the model
///   does not refuse it there;
/// - the revisions are the next ones after the round's first, one per acknowledged operation, none
///   missing or repeated (nothing acknowledged is lost, nothing unacknowledged committed), and an
///   operation that ended before another started committed before it;
/// - every refusal is one the model makes at some point of the history the refused run could have
///   seen (after what had committed when it started, before what started after it ended), with
///   the same message;
/// - the final library (`export`, `list --json`), history (`history --json`) and tree (`history --tree
///   --json`) are the model's.
///
/// The replay stops at the first acknowledged operation that differs: what follows would differ
/// too, and the first is the one to read.
struct HistoryChecker {
    enum Ordering: String, Sendable {
        /// By the `revision` each result prints.
        case revision
        /// By the order ``CommitGateSequencer`` let the commits through (test-only).
        case commitGate
    }

    struct Report: Sendable {
        var findings: [String] = []
        var acknowledged = 0
        var refusals: [LibraryModel.Refusal.Kind: Int] = [:]
        /// Refusals because the library stayed locked past the busy timeout: allowed (they change
        /// nothing, which the final state proves), counted.
        var busy = 0

        var refused: Int { refusals.values.reduce(0, +) }
    }

    private struct Acknowledged {
        var run: CheckerRound.Run
        var printed: LibraryModel.Result
        var key: Int
    }

    private struct Refused {
        var run: CheckerRound.Run
        var message: String
        var kind: LibraryModel.Refusal.Kind
    }

    let record: CheckerRound.Record
    let ordering: Ordering
    private(set) var report = Report()

    /// Checks `record`; the findings are in ``report``.
    init(_ record: CheckerRound.Record, ordering: Ordering) {
        self.record = record
        self.ordering = ordering
        check()
    }

    private mutating func fail(_ finding: String) {
        report.findings.append(finding)
    }

    private mutating func check() {
        record.gateAnomalies.forEach { fail("commit gate: \($0)") }
        let (acknowledged, refused) = classify()
        let ordered = acknowledged.sorted { $0.key < $1.key }
        checkRevisions(ordered)
        checkRealTime(ordered)
        let states = replay(ordered)
        checkRefusals(refused, ordered: ordered, states: states)
        if states.count == ordered.count + 1, let final = states.last {
            checkFinalState(final)
            if report.findings.count == 1, report.findings[0].hasPrefix("the library's export differs") {
                // Every step agreed, the end does not: the whole commit order, to find which step's effect differs.
                let steps = ordered.enumerated().map { index, commit in
                    "    commit \(commit.key): \(commit.run.label) printed \(commit.printed); model after it: "
                        + states[index + 1].albums.map { String($0.title.prefix(12)) }.joined(separator: " | ")
                }
                report.findings[0] += "\n  in commit order:\n" + steps.joined(separator: "\n")
            }
        }
    }

    /// Sorts the runs into acknowledged changes and refusals; anything else is a finding.
    private mutating func classify() -> ([Acknowledged], [Refused]) {
        var acknowledged: [Acknowledged] = []
        var refused: [Refused] = []
        let decoder = JSONDecoder()
        for run in record.runs {
            let result = run.result
            guard !result.timedOut, !result.wasSignaled else {
                fail("\(run.label) \(result.timedOut ? "hung" : "crashed"): \(result)")
                continue
            }
            switch result.status {
            case 0:
                guard let printed = try? decoder.decode(LibraryModel.Result.self, from: Data(result.output.utf8)) else {
                    fail("\(run.label) exited 0 but printed no change result: \(result)")
                    continue
                }
                let key: Int?
                switch ordering {
                case .revision: key = printed.revision
                case .commitGate: key = run.gateOrder
                }
                guard let key else {
                    fail(
                        "\(run.label) exited 0 with no \(ordering == .revision ? "revision" : "commit at its gate"): \(result)"
                    )
                    continue
                }
                acknowledged.append(Acknowledged(run: run, printed: printed, key: key))
            case 1:
                let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
                guard result.error.hasPrefix("albums: "), lines.count == 2, lines[1].isEmpty, result.output.isEmpty
                else {
                    fail("\(run.label) failed without one clear line: \(result)")
                    continue
                }
                let message = String(lines[0].dropFirst("albums: ".count))
                if message.contains("database is locked") {
                    report.busy += 1
                    continue
                }
                guard let kind = LibraryModel.Refusal.kind(ofMessage: message) else {
                    fail("\(run.label) was refused for a reason the model never gives: \(message)")
                    continue
                }
                refused.append(Refused(run: run, message: message, kind: kind))
            default:
                fail("\(run.label) exited \(result.status): \(result)")
            }
        }
        report.acknowledged = acknowledged.count
        for refusal in refused { report.refusals[refusal.kind, default: 0] += 1 }
        return (acknowledged, refused)
    }

    /// One revision per acknowledged change, the next ones after the round's first, none missing.
    private mutating func checkRevisions(_ ordered: [Acknowledged]) {
        guard ordering == .revision else { return }
        var seen: [Int: String] = [:]
        for change in ordered {
            if let other = seen[change.key] {
                fail("\(change.run.label) and \(other) both printed revision \(change.key)")
            }
            seen[change.key] = change.run.label
        }
        guard let final = record.finalHistory.revision else {
            fail("history --json printed no revision")
            return
        }
        let expected = Set((record.initialRevision + 1)..<(final + 1))
        let missing = expected.subtracting(seen.keys).sorted()
        if !missing.isEmpty {
            fail("revisions \(missing) were committed (the history is at \(final)) but no run acknowledged them")
        }
        let unknown = Set(seen.keys).subtracting(expected).sorted()
        if !unknown.isEmpty {
            fail("revisions \(unknown) were printed, outside \(record.initialRevision + 1)...\(final), the history's")
        }
    }

    /// A change that ended before another started committed before it.
    private mutating func checkRealTime(_ ordered: [Acknowledged]) {
        var found = 0
        for (offset, later) in ordered.enumerated() {
            for earlier in ordered[..<offset] where later.run.end < earlier.run.start {
                found += 1
                if found <= 3 {
                    fail(
                        "\(later.run.label) ended before \(earlier.run.label) started, yet committed after it "
                            + "(\(ordering.rawValue) \(later.key) > \(earlier.key))")
                }
            }
        }
    }

    /// Replays the acknowledged changes in commit order; returns the model after 0, 1, … of them
    /// (fewer than all when a change differs from the model).
    private mutating func replay(_ ordered: [Acknowledged]) -> [LibraryModel] {
        var model = LibraryModel(albums: record.initialAlbums)
        var states = [model]
        for (offset, change) in ordered.enumerated() {
            switch model.apply(change.run.operation, addedID: change.printed.id, author: change.run.author) {
            case .failure(let refusal):
                fail(
                    "\(change.run.label) printed \(change.printed) (commit \(offset + 1) of \(ordered.count)), "
                        + "but the model refuses it there: \(refusal.message)\(context(ordered, before: offset))")
                return states
            case .success(var expected):
                var printed = change.printed
                switch ordering {
                case .revision:
                    expected.revision = record.initialRevision + offset + 1
                case .commitGate:
                    // An albums ordered by its gates prints neither.
                    printed.revision = nil
                    printed.title = nil
                    expected.title = nil
                }
                guard printed == expected else {
                    fail(
                        "\(change.run.label), commit \(offset + 1) of \(ordered.count): "
                            + "\(Self.difference(printed, expected)) from the model: "
                            + "printed \(printed), the model \(expected)\(context(ordered, before: offset))")
                    return states
                }
            }
            states.append(model)
        }
        return states
    }

    /// What differs between a printed result and the model's, in words.
    private static func difference(_ printed: LibraryModel.Result, _ expected: LibraryModel.Result) -> String {
        if printed.steps != expected.steps { return "printed steps differ" }
        if printed.id != expected.id || printed.title != expected.title || printed.step != expected.step {
            return "printed album differs"
        }
        return "printed result differs"
    }

    /// The changes just before one, as they printed: what a reader of a finding needs.
    private func context(_ ordered: [Acknowledged], before offset: Int) -> String {
        let shown = ordered[max(0, offset - 6)..<offset].enumerated().map { index, change in
            "\n    commit \(max(0, offset - 6) + index + 1): \(change.run.label) printed \(change.printed)"
        }
        return shown.isEmpty ? "" : "\n  after:" + shown.joined()
    }

    /// Each refusal is one the model makes somewhere in the stretch of history its run could see.
    private mutating func checkRefusals(_ refused: [Refused], ordered: [Acknowledged], states: [LibraryModel]) {
        for refusal in refused {
            // Committed before it started: at least those; started after it ended: none of those.
            let lower = ordered.lastIndex { $0.run.end < refusal.run.start }.map { $0 + 1 } ?? 0
            let upper = min(ordered.firstIndex { $0.run.start > refusal.run.end } ?? ordered.count, states.count - 1)
            guard lower <= upper else { continue }  // past where the replay stopped
            let candidates = (lower...upper).map { point -> Swift.Result<LibraryModel.Result, LibraryModel.Refusal> in
                var model = states[point]
                return model.apply(refusal.run.operation, addedID: nil, author: refusal.run.author)
            }
            let explained = candidates.contains { outcome in
                guard case .failure(let expected) = outcome else { return false }
                return ordering == .revision ? expected.message == refusal.message : expected.kind == refusal.kind
            }
            guard !explained else { continue }
            let modelSays = candidates.map { outcome in
                switch outcome {
                case .success(let result): "accepts it: \(result)"
                case .failure(let expected): "refuses it: \(expected.message)"
                }
            }
            fail(
                "\(refusal.run.label) was refused (\(refusal.message)), but after \(lower) to \(upper) commits, "
                    + "where it ran, the model \(Set(modelSays).sorted().joined(separator: "; or "))")
        }
    }

    /// The library and history as the files hold them are the model's.
    private mutating func checkFinalState(_ model: LibraryModel) {
        if record.finalAlbums != model.albums {
            let printed = record.finalAlbums.map { "\($0.title) (\($0.id.uuidString.prefix(8)))" }
            let expected = model.albums.map { "\($0.title) (\($0.id.uuidString.prefix(8)))" }
            fail("the library's export differs from the model: export \(printed), the model \(expected)")
        }
        if record.listedPositions != Array(1..<(record.listedPositions.count + 1))
            || record.listedIDs != record.finalAlbums.map(\.id)
        {
            fail("list --json differs from the export: positions \(record.listedPositions)")
        }
        // The linear view: the steps done are the model's path to its current state.
        let history = record.finalHistory
        let done = history.steps.filter(\.done).map(\.text)
        let modelDone = model.donePath.map { model.steps[$0]!.text }
        if done != modelDone || history.current != modelDone.count {
            fail("the history differs from the model: done \(done), the model \(modelDone)")
        }
        // The tree: every step, its parent and text, and the current one.
        let tree = record.finalTree
        let printed = tree.steps.map { "\($0.id)<\($0.parent) \($0.text)" }
        let expected = model.steps.keys.sorted().map { "\($0)<\(model.steps[$0]!.parent) \(model.steps[$0]!.text)" }
        if printed != expected || tree.current != model.current {
            fail(
                "the tree differs from the model: at \(tree.current) of \(printed), the model at \(model.current) "
                    + "of \(expected)")
        }
    }
}
