import Foundation
import Testing

/// One checker for every mutating command (issue 21, item 3): rounds of seeded random operations
/// from at least four `albums` processes at once on one library, each round checked by
/// ``HistoryChecker`` against ``LibraryModel`` (RELIABILITY.md, "History checker").
///
/// Environment:
/// - `HISTORY_CHECKER_SEED`: the first round's seed (round *r* uses seed + *r*; a failure prints
///   the seed of its round, which then replays first). The scripts follow from the seed alone;
///   the interleaving is the scheduler's, so a race may take a few runs to come back.
/// - `HISTORY_CHECKER_SECONDS`: how long to keep starting rounds (default 30; then on until
///   ``minimumOperations`` ran, for at most ``maximumSeconds``).
/// - `HISTORY_CHECKER_ALBUMS`: the `albums` to check (default: this package's build), for example
///   an older build.
/// - `HISTORY_CHECKER_ORDER`: `revision` or `gate`: how to order the commits. By default the
///   revision each result prints; an `albums` given in `HISTORY_CHECKER_ALBUMS` that prints none
///   is ordered by its commit gates (test-only, ``CommitGateSequencer``).
@Suite struct HistoryCheckerTests {
    struct Configuration {
        var seed: UInt64
        var seconds: Double
        var albums: String
        var processes: Int
        var ordering: HistoryChecker.Ordering?
        /// A PostgreSQL server to run the rounds on, instead of library files.
        var serverURL: String?

        static func fromEnvironment() -> Configuration {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["HISTORY_CHECKER_SEED"].flatMap { text in
                text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            }
            return Configuration(
                seed: seed ?? 0x5EED_0021,
                seconds: environment["HISTORY_CHECKER_SECONDS"].flatMap(Double.init) ?? 30,
                albums: environment["HISTORY_CHECKER_ALBUMS"]
                    ?? ChildProcess.productsFolder.appendingPathComponent("albums").path,
                processes: max(4, environment["HISTORY_CHECKER_PROCESSES"].flatMap { Int($0) } ?? 4),
                ordering: environment["HISTORY_CHECKER_ORDER"].flatMap { $0 == "gate" ? .commitGate : .revision }
            )
        }
    }

    /// Operations per process in a round: enough for the history to grow and races to happen,
    /// few enough that each round starts again from a fresh library (and a finding is short).
    static let operationsPerProcess = 15

    /// Operations to run however slow the machine, unless ``maximumSeconds`` pass first: in the
    /// parallel suite, with every other test starting at once, a first round took 70 s.
    static let minimumOperations = 300
    static let maximumSeconds = 300.0

    @Test func everyAcknowledgedChangeIsTheModelsInCommitOrder() async throws {
        let configuration = Configuration.fromEnvironment()
        var ordering = HistoryChecker.Ordering.revision
        if let chosen = configuration.ordering {
            ordering = chosen
        } else if ProcessInfo.processInfo.environment["HISTORY_CHECKER_ALBUMS"] != nil {
            ordering = try await Self.ordering(of: configuration.albums)
        }
        print(
            "HistoryChecker: seed \(configuration.seed) (replay with HISTORY_CHECKER_SEED=\(configuration.seed)), "
                + "\(configuration.processes) processes, \(Int(configuration.seconds)) s, ordered by \(ordering.rawValue), "
                + configuration.albums)
        await Self.checkRounds(
            configuration, ordering: ordering, requiredRefusals: Self.requiredRefusals,
            requiredSubcommands: Self.requiredSubcommands)
    }

    #if PostgreSQL
    /// The same checker on a library on a PostgreSQL server (`COMMANDKIT_POSTGRES_URL`, a schema
    /// per round): every command (every change of one album, bulk deletes, edits and moves,
    /// imports, replacements, covers, undo, redo, undo mine and redo mine, jumps, and the repair,
    /// refused every time: nothing edits the library outside albums), from four processes at once,
    /// each round against the model.
    @Test(.enabled(if: Self.serverURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
    func everyAcknowledgedChangeIsTheModelsOnPostgreSQL() async throws {
        var configuration = Configuration.fromEnvironment()
        guard let url = Self.serverURL else {
            Issue.record("COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)")
            return
        }
        configuration.serverURL = url
        configuration.seconds =
            ProcessInfo.processInfo.environment["HISTORY_CHECKER_SECONDS"].flatMap(Double.init) ?? 20
        print(
            "HistoryChecker on PostgreSQL: seed \(configuration.seed) (replay with HISTORY_CHECKER_SEED="
                + "\(configuration.seed)), \(configuration.processes) processes, \(Int(configuration.seconds)) s")
        await Self.checkRounds(
            configuration, ordering: .revision,
            requiredRefusals: Self.requiredRefusals,
            requiredSubcommands: Self.requiredSubcommands)
    }

    /// On a server too the gates' order is the revision order: the gate holds a change inside its
    /// transaction, the history's header locked, as it holds the write lock of a file.
    @Test(.enabled(if: Self.serverURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
    func theCommitGatesOrderIsTheRevisionOrderOnPostgreSQL() async throws {
        let url = try #require(Self.serverURL, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)")
        let record = try await CheckerRound(
            albums: ChildProcess.productsFolder.appendingPathComponent("albums").path, seed: 0x6A7E_0028,
            processes: 4, operationsPerProcess: 8, orderedByGate: true, serverURL: url
        ).run()
        try Self.expectGatesOrderIsRevisionOrder(record)
    }

    static var serverURL: String? { ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"] }
    #endif

    /// Rounds until the time is spent, enough operations ran and every kind was seen: each
    /// round's record checked against the model, a failure recorded with its seed.
    static func checkRounds(
        _ configuration: Configuration, ordering: HistoryChecker.Ordering,
        requiredRefusals: [LibraryModel.Refusal.Kind], requiredSubcommands: [String]
    ) async {
        var operations = 0
        var total = HistoryChecker.Report()
        var subcommands: [String: Int] = [:]
        var elapsed = Duration.zero
        var rounds: UInt64 = 0
        // Whether every kind of refusal has been met and every subcommand acknowledged.
        func coveredAll() -> Bool {
            requiredRefusals.allSatisfy { total.refusals[$0, default: 0] > 0 }
                && requiredSubcommands.allSatisfy { subcommands[$0, default: 0] > 0 }
        }
        // Rounds until the time is spent, enough operations ran and every kind was seen (at least
        // one round), within a bound: time ends the run, it never fails it. A loaded machine runs
        // fewer operations in the time, and a rare kind (a cover removal needs a cover set first)
        // can miss a short run; more rounds find it, rather than the run failing for want of it.
        func goOn() -> Bool {
            if rounds == 0 || elapsed < .seconds(configuration.seconds) { return true }
            return (operations < Self.minimumOperations || !coveredAll()) && elapsed < .seconds(Self.maximumSeconds)
        }
        while goOn() {
            let round = rounds
            rounds += 1
            let seed = configuration.seed &+ round
            let started = ContinuousClock.now
            let record: CheckerRound.Record
            do {
                record = try await CheckerRound(
                    albums: configuration.albums, seed: seed, processes: configuration.processes,
                    operationsPerProcess: Self.operationsPerProcess, orderedByGate: ordering == .commitGate,
                    serverURL: configuration.serverURL
                ).run()
            } catch {
                // The library could not be set up or read back: a failure too, with its seed.
                Issue.record("HistoryChecker: seed \(seed) (replay with HISTORY_CHECKER_SEED=\(seed)): \(error)")
                break
            }
            elapsed += ContinuousClock.now - started
            let report = HistoryChecker(record, ordering: ordering).report
            operations += record.runs.count
            total.acknowledged += report.acknowledged
            total.busy += report.busy
            total.refusals.merge(report.refusals, uniquingKeysWith: +)
            for run in record.runs where run.result.status == 0 {
                subcommands[run.operation.subcommand, default: 0] += 1
            }
            if !report.findings.isEmpty {
                Issue.record(
                    Comment(
                        rawValue: "HistoryChecker: seed \(seed) failed (round \(round) of seed \(configuration.seed); "
                            + "replay with HISTORY_CHECKER_SEED=\(seed)):\n"
                            + report.findings.prefix(8).joined(separator: "\n")
                    ))
                break
            }
        }
        let refusals = total.refusals.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            "\($0.key.rawValue) \($0.value)"
        }
        let changes = subcommands.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print(
            "HistoryChecker: \(rounds) rounds, \(operations) operations in \(Int(elapsed / .seconds(1))) s: "
                + "\(total.acknowledged) acknowledged (\(changes.joined(separator: ", "))), "
                + "\(total.refused) refused (\(refusals.joined(separator: ", "))), \(total.busy) busy")
        // A run long enough must have met every kind of refusal and acknowledged every subcommand.
        if operations >= 400 {
            #expect(requiredRefusals.allSatisfy { total.refusals[$0, default: 0] > 0 }, "\(refusals)")
            #expect(requiredSubcommands.allSatisfy { subcommands[$0, default: 0] > 0 }, "\(subcommands)")
        }
    }

    /// The refusals a long enough run must meet.
    static let requiredRefusals: [LibraryModel.Refusal.Kind] = [
        .positionOutOfRange, .albumNotFound, .ambiguousTitle, .nothingToChange, .nothingToUndo, .nothingToRedo,
        .idInLibrary,
    ]

    /// The subcommands a long enough run must have acknowledged.
    static let requiredSubcommands = [
        "add", "edit", "move", "delete", "undo", "redo", "import", "import --replace", "delete several", "edit QUERY",
        "move QUERY", "cover set", "cover remove",
    ]

    /// The test-only ordering agrees with the revisions: run on this package's `albums` through
    /// commit gates, the order the gates saw is the revision order, and the round checks clean
    /// ordered either way.
    @Test func theCommitGatesOrderIsTheRevisionOrder() async throws {
        let albums = ChildProcess.productsFolder.appendingPathComponent("albums").path
        let record = try await CheckerRound(
            albums: albums, seed: 0x6A7E_0021, processes: 4, operationsPerProcess: 8, orderedByGate: true
        ).run()
        try Self.expectGatesOrderIsRevisionOrder(record)
    }

    /// The round's commits in gate order are in revision order, and the round checks clean ordered
    /// either way.
    static func expectGatesOrderIsRevisionOrder(_ record: CheckerRound.Record) throws {
        let decoder = JSONDecoder()
        let orders = try record.runs.filter { $0.result.status == 0 }.map { run in
            let printed = try decoder.decode(LibraryModel.Result.self, from: Data(run.result.output.utf8))
            return (gate: try #require(run.gateOrder, "\(run.label)"), revision: try #require(printed.revision))
        }
        #expect(orders.count > 8)
        let gatesByRevision = orders.sorted { $0.revision < $1.revision }.map(\.gate)
        #expect(gatesByRevision == gatesByRevision.sorted(), "\(orders)")
        for ordering in [HistoryChecker.Ordering.revision, .commitGate] {
            let findings = HistoryChecker(record, ordering: ordering).report.findings
            #expect(findings.isEmpty, "\(ordering): \(findings.joined(separator: "\n"))")
        }
    }

    /// How to order an `albums`'s commits: by its printed revision, or by commit gates when it
    /// prints none (an older build).
    static func ordering(of albums: String) async throws -> HistoryChecker.Ordering {
        let folder = try ChildProcess.makeFolder("history-checker-probe")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ChildProcess.run(
            albums, ["--db", folder.appendingPathComponent("probe.sqlite").path, "--json", "delete", "1"], timeout: 120)
        try #require(result.status == 0, "\(result)")
        return result.output.contains("\"revision\"") ? .revision : .commitGate
    }
}
