// The postgres suite's concurrent clients (issue 28): albums clients changing one library on a
// PostgreSQL server at once, each its own LibrarySession.open(postgreSQL:author:) on a thread of
// its own.
//
//     command-bench postgres clients C [changes N] [--url URL]
//
// For synchronous_commit on (durable) then off, 1 client doing N changes (default 300), 1 client
// doing C × N, then C clients doing N each, each phase on a fresh library in a schema of its own:
// 200 albums added first by one session (recorded steps too), then every client, started
// together, runs its seeded operations on albums at positions 1…150: add (30 %), edit the title (25 %), move to another position
// (15 %), delete (15 %), undo the last step, whoever recorded it (15 %). A refusal (a move to the
// album's own position, an undo with nothing left to undo, an undo whose album another client has
// deleted) is counted by its code and records nothing; any other error fails the run.
//
// Prints per phase: committed changes per second (acknowledged changes over the phase's wall
// time), p50 and p99 latency per acknowledged change (the call's wall time, the transaction and
// its wait for the history's header lock included), then the checks (below) and their
// violations. Issue targets: C clients' throughput not below 1 client's, p99 ≤ 50 ms, 0
// violations. The throughput ratio is taken against the client that made as many changes as the C
// clients together: a change costs more as the history and the server's dead row versions grow,
// so a short run of one client is faster per change than a long one whatever the contention (the
// ratio against it is printed too).
//
// The checks, against what the clients were told (each call's acknowledgement, and for an undo
// the kind of the step it reports undone):
// - albums: the library's count equals 200 + adds − deletes − undone adds + undone deletes;
// - ids: no id twice (the albums read in library order, and `count(DISTINCT id)` on the table);
// - positions: the sort keys are distinct, and each album's position as the library finds it by
//   id is its place in the listing, 1…n;
// - history: the steps done equal the acknowledged changes minus the acknowledged undos, and the
//   history's tree holds one node per acknowledged change (a push after an undo starts a branch,
//   so no step is ever dropped).

#if PostgreSQL
import AlbumLibrary
import CommandKit
import CommandStore
import Foundation
import PostgreSQLDatabase
import Synchronization

enum PostgreSQLClientsBenchmark {
    /// The albums each phase starts with.
    static let initialAlbums = 200
    /// The positions the operations name: all valid while the library holds this many albums.
    static let window = 150

    static func run(_ arguments: [String], url: String) throws {
        let usage = BenchmarkError("usage: command-bench postgres clients C [changes N] [--url URL]")
        guard let first = arguments.first, let clients = Int(first), clients >= 1 else { throw usage }
        var changes = 300
        let rest = Array(arguments.dropFirst())
        if rest.count == 2, rest[0] == "changes", let n = Int(rest[1]), n > 0 {
            changes = n
        } else if !rest.isEmpty {
            throw usage
        }
        var violations = 0
        for synchronous in ["on", "off"] {
            // One client doing what each of the C clients does, one doing what all of them do
            // together (the same growth of the library and its history), then the C clients.
            var phases = [Phase(base: url, clients: 1, changes: changes, synchronous: synchronous)]
            if clients > 1 {
                phases += [
                    Phase(base: url, clients: 1, changes: clients * changes, synchronous: synchronous),
                    Phase(base: url, clients: clients, changes: changes, synchronous: synchronous),
                ]
            }
            var throughput: [Double] = []
            for phase in phases {
                let outcome = try phase.run()
                throughput.append(outcome.changesPerSecond)
                violations += outcome.violations
            }
            if clients > 1 {
                print(
                    "postgres clients synchronous_commit=\(synchronous) throughput_ratio_\(clients)_to_1="
                        + String(format: "%.2f", throughput[2] / throughput[1]) + " (the same changes in all)"
                        + " throughput_ratio_\(clients)_to_1_of_\(changes)="
                        + String(format: "%.2f", throughput[2] / throughput[0]) + " (one client's \(changes) changes)")
            }
        }
        if violations > 0 { throw BenchmarkError("\(violations) invariant violations") }
    }

    /// What one client did: its acknowledged changes by kind, its refusals, its latencies.
    struct Tally: Sendable {
        var adds = 0
        var deletes = 0
        var edits = 0
        var moves = 0
        var undos = 0
        var undoneAdds = 0
        var undoneDeletes = 0
        var refused: [String: Int] = [:]
        /// Seconds per acknowledged change.
        var latencies: [Double] = []

        var pushes: Int { adds + deletes + edits + moves }
        var acknowledged: Int { pushes + undos }

        mutating func add(_ other: Tally) {
            adds += other.adds
            deletes += other.deletes
            edits += other.edits
            moves += other.moves
            undos += other.undos
            undoneAdds += other.undoneAdds
            undoneDeletes += other.undoneDeletes
            refused.merge(other.refused, uniquingKeysWith: +)
            latencies += other.latencies
        }
    }

    /// The clients' results, collected from their threads.
    final class Results: Sendable {
        private let storage = Mutex<[(tally: Tally?, error: String?)]>([])

        func append(_ tally: Tally?, _ error: String?) { storage.withLock { $0.append((tally, error)) } }
        var all: [(tally: Tally?, error: String?)] { storage.withLock { $0 } }
    }

    struct Outcome {
        var changesPerSecond: Double
        var violations: Int
    }

    struct Phase {
        let base: String
        let clients: Int
        let changes: Int
        let synchronous: String

        func run() throws -> Outcome {
            let server = try BenchServer(
                url: base, suffix: "_c\(clients)_n\(changes)_\(synchronous)", synchronousCommit: synchronous)
            defer { server.drop() }
            try LibrarySession.create(postgreSQL: server.url)
            let setup = try LibrarySession.open(postgreSQL: server.url, author: "setup")
            for i in 0..<initialAlbums {
                try setup.add(Album(title: "album \(i)", artist: "setup", genre: "bench", year: 1960 + i % 60))
            }

            let results = Results()
            let (ready, go, finished) = (
                DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
            )
            let (url, changes) = (server.url, self.changes)
            for index in 0..<clients {
                let thread = Thread {
                    do {
                        results.append(try Self.client(index, url: url, changes: changes, ready: ready, go: go), nil)
                    } catch {
                        results.append(nil, "client \(index): \(error)")
                    }
                    finished.signal()
                }
                thread.start()
            }
            // Every session is open before the clock starts.
            for _ in 0..<clients { ready.wait() }
            let clock = ContinuousClock()
            let started = clock.now
            for _ in 0..<clients { go.signal() }
            for _ in 0..<clients { finished.wait() }
            let elapsed = BenchmarkMath.seconds(clock.now - started)

            var total = Tally()
            for result in results.all {
                if let error = result.error { throw BenchmarkError(error) }
                if let tally = result.tally { total.add(tally) }
            }
            let violations = try check(server: server, total: total)
            let latencies = total.latencies.sorted()
            let rate = Double(total.acknowledged) / elapsed
            let refused = total.refused.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
                .joined(separator: ",")
            print(
                "postgres clients=\(clients) changes_per_client=\(changes) synchronous_commit=\(synchronous) "
                    + "acknowledged=\(total.acknowledged) (add=\(total.adds) edit=\(total.edits) move=\(total.moves) "
                    + "delete=\(total.deletes) undo=\(total.undos): undone_add=\(total.undoneAdds) "
                    + "undone_delete=\(total.undoneDeletes)) refused=\(total.refused.values.reduce(0, +))"
                    + (refused.isEmpty ? "" : " (\(refused))")
                    + " seconds=\(String(format: "%.2f", elapsed)) changes_per_s=\(Int(rate)) "
                    + "p50_ms=\(Self.milliseconds(latencies, 0.50)) p99_ms=\(Self.milliseconds(latencies, 0.99)) "
                    + "max_ms=\(Self.milliseconds(latencies, 1)) violations=\(violations)")
            return Outcome(changesPerSecond: rate, violations: violations)
        }

        /// One client: opens its session, waits for the start, runs its operations.
        static func client(
            _ index: Int, url: String, changes: Int, ready: DispatchSemaphore, go: DispatchSemaphore
        ) throws -> Tally {
            let session: LibrarySession
            do {
                session = try LibrarySession.open(postgreSQL: url, author: "client \(index)")
            } catch {
                ready.signal()
                throw error
            }
            ready.signal()
            go.wait()
            var random = LaunchBenchmark.SplitMix64(seed: 0x5EED_0000 + UInt64(index))
            var tally = Tally()
            let clock = ContinuousClock()
            for i in 0..<changes {
                let roll = Int.random(in: 0..<100, using: &random)
                let position = Int.random(in: 1...window, using: &random)
                let target = Int.random(in: 1...window, using: &random)
                let started = clock.now
                do {
                    switch roll {
                    case 0..<30:
                        try session.add(
                            Album(title: "added \(index)-\(i)", artist: "client \(index)", genre: "bench", year: 2000),
                            at: position)
                        tally.adds += 1
                    case 30..<55:
                        try session.edit(.position(position), changes: AlbumChanges(title: "edited \(index)-\(i)"))
                        tally.edits += 1
                    case 55..<70:
                        try session.move(.position(position), to: target)
                        tally.moves += 1
                    case 70..<85:
                        try session.delete(.position(position))
                        tally.deletes += 1
                    default:
                        for record in try session.undo() {
                            if record.kind == AddAlbumCommand.kind { tally.undoneAdds += 1 }
                            if record.kind == DeleteAlbumCommand.kind { tally.undoneDeletes += 1 }
                        }
                        tally.undos += 1
                    }
                    tally.latencies.append(BenchmarkMath.seconds(clock.now - started))
                } catch let error as LibraryError {
                    tally.refused[error.code.description, default: 0] += 1
                }
            }
            return tally
        }

        /// Checks the library and its history against what the clients were told; prints each
        /// violation and returns their number.
        func check(server: BenchServer, total: Tally) throws -> Int {
            var violations: [String] = []
            let session = try LibrarySession.open(postgreSQL: server.url)
            let library = session.library
            let expected = initialAlbums + total.adds - total.deletes - total.undoneAdds + total.undoneDeletes
            let albums = try library.albums()
            if try library.count() != expected || albums.count != expected {
                violations.append(
                    "albums: \(albums.count) listed, \(try library.count()) counted, expected \(expected)")
            }
            if Set(albums.map(\.id)).count != albums.count {
                violations.append("ids: \(albums.count - Set(albums.map(\.id)).count) duplicates")
            }
            let row = try server.connect().query(
                "SELECT count(*), count(DISTINCT id), count(DISTINCT sort_key) FROM album"
            ).first
            let counts = try (0..<3).map { try row?.decode(Int.self, at: $0) ?? -1 }
            if counts != [albums.count, albums.count, albums.count] {
                violations.append("table: rows, distinct ids, distinct sort keys \(counts), listed \(albums.count)")
            }
            for (index, album) in albums.enumerated() {
                let position = try library.find(.id(album.id)).position
                if position != index + 1 {
                    violations.append("positions: album \(album.id) listed at \(index + 1), found at \(position)")
                    break
                }
            }
            // The setup's adds are acknowledged pushes too.
            let pushes = initialAlbums + total.pushes
            let steps = try session.historySteps()
            if steps.current != pushes - total.undos {
                violations.append(
                    "history: \(steps.current) steps done, expected \(pushes) pushes − \(total.undos) undos")
            }
            let nodes = try session.historyTree().nodes.filter { $0.id != .root }.count
            if nodes != pushes {
                violations.append("history: \(nodes) steps recorded, expected \(pushes) acknowledged pushes")
            }
            for violation in violations { print("postgres clients=\(clients) violation: \(violation)") }
            return violations.count
        }

        /// The value at quantile `q` (nearest rank) of sorted seconds, in milliseconds.
        static func milliseconds(_ sorted: [Double], _ q: Double) -> String {
            guard !sorted.isEmpty else { return "0" }
            let rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
            return String(format: "%.1f", sorted[rank] * 1000)
        }
    }
}
#endif
