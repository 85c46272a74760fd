// The store suite: CommandStore's durable history against raw SQLite, side by side in one run.
//
//     swift run -c release command-bench store [commits N] [open N] [--dir PATH] [--sync full|normal]
//
// With no workload it runs both with their defaults (commits 2000, open 1000000).
//
// commits N: N commands pushed on a DurableHistory, each push its own transaction (receiver write +
//   history row + header), against N raw transactions that each insert the same JSON payload with a
//   prepared statement ("raw"), and N raw transactions that also make the receiver's write
//   ("raw_with_data"); for synchronous=FULL and NORMAL, WAL mode. Prints commits_per_s and ratios.
// open N: builds a history of N entries and one of 10, then times reopening each (openStore +
//   DurableHistory init + reading the Undo/Redo texts), median of 15; prints the ratio.

import CommandStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum StoreBenchmark {
    static func run(_ arguments: [String]) throws {
        var arguments = arguments
        var directory = NSTemporaryDirectory() + "command-bench-store-\(getpid())"
        if let flag = arguments.firstIndex(of: "--dir"), flag + 1 < arguments.count {
            directory = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        var levels = Database.Configuration.Synchronous.allCases
        if let flag = arguments.firstIndex(of: "--sync"), flag + 1 < arguments.count {
            guard let level = Database.Configuration.Synchronous(rawValue: arguments[flag + 1].uppercased()) else {
                throw BenchmarkError("--sync takes full or normal")
            }
            levels = [level]
            arguments.removeSubrange(flag...(flag + 1))
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var workloads: [(String, Int)] = []
        var index = 0
        while index < arguments.count {
            guard index + 1 < arguments.count, let n = Int(arguments[index + 1]), n > 0 else {
                throw BenchmarkError("usage: command-bench store [commits N] [open N] [--dir PATH] [--sync full|normal]")
            }
            workloads.append((arguments[index], n))
            index += 2
        }
        if workloads.isEmpty { workloads = [("commits", 2000), ("open", 1_000_000)] }
        for (name, n) in workloads {
            switch name {
            case "commits": try StoreWorkloads(directory: directory, levels: levels).commits(n)
            case "open": try StoreWorkloads(directory: directory, levels: levels).open(n)
            default: throw BenchmarkError("unknown store workload \(name) (expected commits or open)")
            }
        }
    }
}

/// The receiver: one counter row.
private final class Counter {
    static let schema = Schema(identifier: "bench", migrations: [
        Migration(version: 1, name: "counter", sql: """
            CREATE TABLE counter (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
            INSERT INTO counter VALUES (1, 0)
            """),
    ])

    let database: Database

    init(database: Database) {
        self.database = database
    }

    func add(_ amount: Int) throws {
        try database.execute("UPDATE counter SET value = value + ? WHERE id = 1", [amount])
    }

    func value() throws -> Int {
        try database.fetchOne("SELECT value FROM counter WHERE id = 1")!.decode(Int.self, at: 0)
    }
}

/// WORKLOAD.md's command: adds `a(i) = i mod 10 + 1` to the counter; never merges.
private struct Add: PersistentCommand {
    static let kind = "bench.add"
    var amount: Int

    var text: String { "Add" }

    func redo(on counter: Counter) throws { try counter.add(amount) }
    func undo(on counter: Counter) throws { try counter.add(-amount) }
}

private struct StoreWorkloads {
    let directory: String
    let levels: [Database.Configuration.Synchronous]
    let clock = ContinuousClock()

    var registry: CommandRegistry<Counter> {
        var registry = CommandRegistry<Counter>()
        registry.register(Add.self)
        return registry
    }

    func path(_ name: String) -> String {
        let path = directory + "/" + name
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        return path
    }

    func configuration(_ synchronous: Database.Configuration.Synchronous) -> Database.Configuration {
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        configuration.synchronous = synchronous
        return configuration
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func expectedSum(_ n: Int) -> Int {
        let rest = n % 10
        return n / 10 * 55 + rest * (rest + 1) / 2
    }

    // MARK: commits

    func commits(_ n: Int) throws {
        let payload = try JSONEncoder().encode(Add(amount: 10))
        for synchronous in levels {
            let level = synchronous.rawValue.lowercased()
            // Interleave the three so a burst of machine noise hits them alike.
            var raw = Duration.zero, rawWithData = Duration.zero, durable = Duration.zero
            let rounds = 4
            let perRound = max(1, n / rounds)
            for round in 0..<rounds {
                raw += try rawInserts(perRound, payload: payload, withData: false, synchronous, round: round)
                rawWithData += try rawInserts(perRound, payload: payload, withData: true, synchronous, round: round)
                durable += try durablePushes(perRound, synchronous, round: round)
            }
            let total = perRound * rounds
            let rawRate = Double(total) / Self.seconds(raw)
            let rawWithDataRate = Double(total) / Self.seconds(rawWithData)
            let durableRate = Double(total) / Self.seconds(durable)
            print("suite=store workload=commits synchronous=\(level) n=\(total) payload_bytes=\(payload.count)")
            print("  raw_commits_per_s=\(Int(rawRate))")
            print("  raw_with_data_commits_per_s=\(Int(rawWithDataRate))")
            print("  durable_commits_per_s=\(Int(durableRate))")
            print("  ratio_durable_to_raw=\(String(format: "%.3f", durableRate / rawRate)) (target >= 0.5)")
            print("  ratio_durable_to_raw_with_data=\(String(format: "%.3f", durableRate / rawWithDataRate))")
        }
    }

    /// N transactions, each inserting the payload (and, `withData`, updating the counter).
    private func rawInserts(
        _ n: Int,
        payload: Data,
        withData: Bool,
        _ synchronous: Database.Configuration.Synchronous,
        round: Int
    ) throws -> Duration {
        let db = try Database(path: path("raw-\(withData)-\(round).sqlite"), configuration: configuration(synchronous))
        defer { db.close() }
        try db.execute("""
            CREATE TABLE log (id INTEGER PRIMARY KEY, payload BLOB NOT NULL);
            CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
            INSERT INTO counter VALUES (1, 0)
            """)
        let begin = try db.prepare("BEGIN IMMEDIATE")
        let commit = try db.prepare("COMMIT")
        let insert = try db.prepare("INSERT INTO log (payload) VALUES (?)")
        let update = try db.prepare("UPDATE counter SET value = value + ? WHERE id = 1")
        let start = clock.now
        for i in 0..<n {
            try begin.execute()
            if withData { try update.execute([i % 10 + 1]) }
            try insert.execute([payload])
            try commit.execute()
        }
        let elapsed = clock.now - start
        guard try db.fetchOne("SELECT count(*) FROM log")?.decode(Int.self, at: 0) == n else {
            throw BenchmarkError("raw: wrong row count")
        }
        return elapsed
    }

    /// N pushes on a durable history, each its own transaction.
    private func durablePushes(_ n: Int, _ synchronous: Database.Configuration.Synchronous, round: Int) throws -> Duration {
        let db = try Database.openStore(
            path: path("durable-\(round).sqlite"),
            schemas: [Counter.schema],
            configuration: configuration(synchronous)
        )
        defer { db.close() }
        let counter = Counter(database: db)
        let history = try DurableHistory(database: db, receiver: counter, registry: registry)
        let start = clock.now
        for i in 0..<n {
            try history.push(Add(amount: i % 10 + 1))
        }
        let elapsed = clock.now - start
        guard try counter.value() == Self.expectedSum(n), history.count == n else {
            throw BenchmarkError("durable: counter \(try counter.value()) or count \(history.count) is wrong")
        }
        return elapsed
    }

    // MARK: open

    func open(_ n: Int) throws {
        let large = path("open-large.sqlite")
        let small = path("open-small.sqlite")
        let buildStart = clock.now
        try build(large, entries: n)
        let buildTime = clock.now - buildStart
        try build(small, entries: 10)
        // Alternate the two so the page cache and machine load treat them alike.
        var largeTimes: [Duration] = []
        var smallTimes: [Duration] = []
        for _ in 0..<15 {
            largeTimes.append(try timeOpen(large, entries: n))
            smallTimes.append(try timeOpen(small, entries: 10))
        }
        let largeMedian = largeTimes.sorted()[largeTimes.count / 2]
        let smallMedian = smallTimes.sorted()[smallTimes.count / 2]
        let size = (try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0
        print("suite=store workload=open n=\(n) file_bytes=\(size) build_s=\(String(format: "%.1f", Self.seconds(buildTime)))")
        print("  open_\(n)_us=\(String(format: "%.1f", Self.seconds(largeMedian) * 1e6))")
        print("  open_10_us=\(String(format: "%.1f", Self.seconds(smallMedian) * 1e6))")
        print("  ratio_open_\(n)_to_10=\(String(format: "%.3f", Self.seconds(largeMedian) / Self.seconds(smallMedian))) (target <= 2)")
    }

    /// A history of `entries` pushes (inside one enclosing transaction, so building is quick), 3 undone.
    private func build(_ path: String, entries: Int) throws {
        let db = try Database.openStore(path: path, schemas: [Counter.schema], configuration: configuration(.normal))
        let counter = Counter(database: db)
        let history = try DurableHistory(database: db, receiver: counter, registry: registry)
        var pushed = 0
        while pushed < entries {
            let batch = min(100_000, entries - pushed)
            try db.inTransaction {
                for i in pushed..<(pushed + batch) { try history.push(Add(amount: i % 10 + 1)) }
                return .commit
            }
            pushed += batch
        }
        for _ in 0..<3 { try history.undo() }
        db.close()
    }

    /// The time to open the store and its history and read the Undo/Redo texts.
    private func timeOpen(_ path: String, entries: Int) throws -> Duration {
        let start = clock.now
        let db = try Database.openStore(path: path, schemas: [Counter.schema])
        let history = try DurableHistory(database: db, receiver: Counter(database: db), registry: registry)
        let texts = (history.undoText, history.redoText)
        let elapsed = clock.now - start
        guard history.count == entries, history.index == entries - 3, texts == ("Add", "Add") else {
            throw BenchmarkError("open: reopened history is wrong (\(history.state))")
        }
        db.close()
        return elapsed
    }
}
