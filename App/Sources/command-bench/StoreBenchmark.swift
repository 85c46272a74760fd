// The store suite: CommandStore's durable history against raw SQLite, side by side in one run.
//
//     swift run -c release command-bench store [commits N] [open N] [--dir PATH] [--sync full|normal]
//
// With no workload it runs both with their defaults (commits 2000, open 1000000).
//
// commits N: N commands pushed on a DurableHistory, each push its own transaction. The command
//   inserts its payload (a 64-byte title) into the receiver's table; the history adds its record.
//   Baselines, same file settings (WAL, same synchronous), each insert its own transaction with a
//   prepared statement: "raw" inserts the same payload row (the issue's baseline: the work without
//   a history), "raw_with_record" also inserts the command's JSON into a log table (a hand-made
//   log), and "raw_history_sql" runs exactly the SQL of a durable push (the payload row and a
//   history row of the store's shape, its JSON encoded before timing, beside a header row at the
//   smallest key): the ceiling for this history format, SQLite's cost alone. "durable_reading_texts" also reads the Undo text after each push;
//   "durable_reading_controls" reads what an Undo and a Redo control show after each push
//   (canUndo, undoText, canRedo, redoText: each read checks for other processes' commits). Payloads are
//   built before timing. Runs synchronous=FULL and NORMAL, the five interleaved in 4 rounds;
//   prints commits_per_s and ratios.
// open N: builds a history of N entries and one of 10, then times reopening each (openStore +
//   DurableHistory init + reading the Undo/Redo texts), median of 15; prints the ratio.
// poll N: what following other processes costs. N calls of DurableHistory.refresh() while nothing
//   changes (what an idle view pays per poll), then N/100 rounds of a push on a second connection
//   followed by refresh() on the first (the reread when something did change).

import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase

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
                throw BenchmarkError(
                    "usage: command-bench store [commits N] [open N] [--dir PATH] [--sync full|normal]")
            }
            workloads.append((arguments[index], n))
            index += 2
        }
        if workloads.isEmpty { workloads = [("commits", 2000), ("open", 1_000_000)] }
        for (name, n) in workloads {
            switch name {
            case "commits": try StoreWorkloads(directory: directory, levels: levels).commits(n)
            case "open": try StoreWorkloads(directory: directory, levels: levels).open(n)
            case "open-tree": try StoreWorkloads(directory: directory, levels: levels).open(n, keepsBranches: true)
            case "poll": try StoreWorkloads(directory: directory, levels: levels).poll(n)
            default: throw BenchmarkError("unknown store workload \(name) (expected commits, open, open-tree or poll)")
            }
        }
    }
}

/// The receiver: a table of items (a stand-in for the album library).
private final class Items {
    static let schema = Schema(
        identifier: "bench",
        migrations: [
            Migration(version: 1, name: "items", sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        ])

    let database: Database
    /// Prepared on first use and kept, as the raw baseline's insert is: both pay SQLite's work, not
    /// a statement look-up.
    private var insertStatement: Statement?

    init(database: Database) {
        self.database = database
    }

    func insert(_ title: String) throws -> Int64 {
        let statement = try insertStatement ?? database.prepare("INSERT INTO item (title) VALUES (?)")
        insertStatement = statement
        try statement.execute([title])
        return database.lastInsertedRowID
    }

    func delete(_ id: Int64) throws {
        try database.execute("DELETE FROM item WHERE id = ?", [id])
    }

    func count() throws -> Int {
        try database.fetchOne("SELECT count(*) FROM item")!.decode(Int.self, at: 0)
    }
}

/// Inserts an item; undo deletes it. Never merges.
private struct AddItem: PersistentCommand {
    static let kind = "bench.add-item"
    var title: String
    var id: Int64?

    var text: String { "Add Item" }

    mutating func redo(on items: Items) throws { id = try items.insert(title) }
    func undo(on items: Items) throws { if let id { try items.delete(id) } }
}

/// The payload of command `i`: a 64-byte title.
private func title(_ i: Int) -> String {
    let digits = String(i)
    return "Album title number " + String(repeating: "x", count: 64 - 19 - digits.count) + digits
}

private struct StoreWorkloads {
    let directory: String
    let levels: [Database.Configuration.Synchronous]
    let clock = ContinuousClock()

    var registry: CommandRegistry<Items> {
        var registry = CommandRegistry<Items>()
        registry.register(AddItem.self)
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

    // MARK: commits

    func commits(_ n: Int) throws {
        let sample = try JSONEncoder().encode(AddItem(title: title(n), id: Int64(n)))
        for synchronous in levels {
            let level = synchronous.rawValue.lowercased()
            // Interleave the three so a burst of machine noise hits them alike.
            var raw = Duration.zero, rawWithRecord = Duration.zero, rawHistorySQL = Duration.zero
            var durable = Duration.zero, durableTexts = Duration.zero, durableControls = Duration.zero
            var durableAuthor = Duration.zero
            let rounds = 4
            let perRound = max(1, n / rounds)
            // Built before timing: every series stores the same strings, none pays to make them.
            let titles = (0..<perRound).map(title)
            for round in 0..<rounds {
                raw += try rawInserts(titles, .payload, synchronous, round: round)
                rawWithRecord += try rawInserts(titles, .payloadAndRecord, synchronous, round: round)
                rawHistorySQL += try rawInserts(titles, .historySQL, synchronous, round: round)
                durable += try durablePushes(titles, reading: .nothing, synchronous, round: round)
                durableTexts += try durablePushes(titles, reading: .undoText, synchronous, round: round)
                durableControls += try durablePushes(titles, reading: .controls, synchronous, round: round)
                durableAuthor += try durablePushes(
                    titles, reading: .nothing, author: "ada@studio.example", synchronous, round: round)
            }
            let total = perRound * rounds
            let rawRate = Double(total) / BenchmarkMath.seconds(raw)
            let rawWithRecordRate = Double(total) / BenchmarkMath.seconds(rawWithRecord)
            let rawHistorySQLRate = Double(total) / BenchmarkMath.seconds(rawHistorySQL)
            let durableRate = Double(total) / BenchmarkMath.seconds(durable)
            let durableTextsRate = Double(total) / BenchmarkMath.seconds(durableTexts)
            let durableControlsRate = Double(total) / BenchmarkMath.seconds(durableControls)
            let durableAuthorRate = Double(total) / BenchmarkMath.seconds(durableAuthor)
            print(
                "suite=store workload=commits synchronous=\(level) n=\(total) payload_bytes=64 record_bytes=\(sample.count)"
            )
            print("  raw_commits_per_s=\(Int(rawRate))")
            print("  raw_with_record_commits_per_s=\(Int(rawWithRecordRate))")
            print("  raw_history_sql_commits_per_s=\(Int(rawHistorySQLRate))")
            print("  durable_commits_per_s=\(Int(durableRate))")
            print("  durable_reading_texts_commits_per_s=\(Int(durableTextsRate))")
            print("  durable_reading_controls_commits_per_s=\(Int(durableControlsRate))")
            print("  durable_with_author_commits_per_s=\(Int(durableAuthorRate))")
            print(
                "  ratio_durable_with_author_to_durable=\(String(format: "%.3f", durableAuthorRate / durableRate)) (target >= 0.95)"
            )
            print("  ratio_durable_to_raw=\(String(format: "%.3f", durableRate / rawRate)) (target >= 0.5)")
            print("  ratio_durable_to_raw_with_record=\(String(format: "%.3f", durableRate / rawWithRecordRate))")
            print("  ratio_raw_history_sql_to_raw=\(String(format: "%.3f", rawHistorySQLRate / rawRate)) (the ceiling)")
            print("  ratio_durable_to_raw_history_sql=\(String(format: "%.3f", durableRate / rawHistorySQLRate))")
            print("  ratio_durable_reading_texts_to_raw=\(String(format: "%.3f", durableTextsRate / rawRate))")
            print("  ratio_durable_reading_controls_to_raw=\(String(format: "%.3f", durableControlsRate / rawRate))")
        }
    }

    /// What a raw series writes in each transaction.
    enum RawSeries {
        /// The payload row alone (the issue's baseline).
        case payload
        /// The payload row and the command's JSON (`JSONEncoder`) in a log.
        case payloadAndRecord
        /// The SQL of a durable push, with the history row's JSON encoded before timing.
        case historySQL
    }

    /// N transactions, each writing what `series` says.
    private func rawInserts(
        _ titles: [String],
        _ series: RawSeries,
        _ synchronous: Database.Configuration.Synchronous,
        round: Int
    ) throws -> Duration {
        let db = try Database(path: path("raw-\(series)-\(round).sqlite"), configuration: configuration(synchronous))
        defer { db.close() }
        try db.execute(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TABLE log (id INTEGER PRIMARY KEY, record BLOB NOT NULL);
            CREATE TABLE history (
                sequence INTEGER PRIMARY KEY, kind TEXT, version INTEGER, text TEXT, action_text TEXT,
                merge_id INTEGER, significant INTEGER, payload BLOB,
                base INTEGER, count INTEGER, current_index INTEGER, clean_index INTEGER, undo_limit INTEGER);
            INSERT INTO history (sequence, base, undo_limit) VALUES (-9223372036854775807 - 1, 0, 0)
            """)
        let begin = try db.prepare("BEGIN IMMEDIATE")
        let commit = try db.prepare("COMMIT")
        let insert = try db.prepare("INSERT INTO item (title) VALUES (?)")
        let log = try db.prepare("INSERT INTO log (record) VALUES (?)")
        let history = try db.prepare(
            """
            INSERT INTO history (kind, version, text, action_text, merge_id, significant, payload, sequence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let encoder = JSONEncoder()
        // The history rows' JSON, encoded before timing (the ids the receiver will assign: 1...).
        let records =
            series == .historySQL
            ? try titles.enumerated().map { try encoder.encode(AddItem(title: $1, id: Int64($0 + 1))) }
            : []
        let n = titles.count
        let start = clock.now
        for (offset, payload) in titles.enumerated() {
            try begin.execute()
            switch series {
            case .payload:
                try insert.execute([payload])
            case .payloadAndRecord:
                try insert.execute([payload])
                try log.execute([try encoder.encode(AddItem(title: payload, id: db.lastInsertedRowID))])
            case .historySQL:
                try insert.execute([payload])
                // The action text equals the text: stored as NULL, as the store does.
                try history.execute([
                    AddItem.kind, 1, "Add Item", nil as String?, nil as Int?, 1, records[offset], offset,
                ])
            }
            try commit.execute()
        }
        let elapsed = clock.now - start
        guard try db.fetchOne("SELECT count(*) FROM item")?.decode(Int.self, at: 0) == n else {
            throw BenchmarkError("raw: wrong row count")
        }
        return elapsed
    }

    /// N pushes on a durable history, each its own transaction; `readingTexts`, the Undo text read
    /// after each (what an app refreshing its Edit menu pays).
    /// What a durable series reads after each push.
    enum Reading {
        case nothing
        /// `undoText` (an Edit menu's title).
        case undoText
        /// What an Undo and a Redo control show: `canUndo`, `undoText`, `canRedo`, `redoText`.
        case controls
    }

    private func durablePushes(
        _ titles: [String],
        reading: Reading,
        author: String? = nil,
        _ synchronous: Database.Configuration.Synchronous,
        round: Int
    ) throws -> Duration {
        let n = titles.count
        let db = try Database.openStore(
            path: path("durable-\(reading)-\(author != nil)-\(round).sqlite"),
            schemas: [Items.schema],
            configuration: configuration(synchronous)
        )
        defer { db.close() }
        let items = Items(database: db)
        let history = try DurableHistory(database: db, receiver: items, registry: registry)
        history.author = author
        var texts = 0
        let start = clock.now
        for payload in titles {
            try history.push(AddItem(title: payload))
            switch reading {
            case .nothing: break
            case .undoText: texts += history.undoText.utf8.count
            case .controls:
                if history.canUndo { texts += history.undoText.utf8.count }
                if history.canRedo { texts += history.redoText.utf8.count + 1 }
            }
        }
        let elapsed = clock.now - start
        guard reading == .nothing || texts == n * "Add Item".utf8.count else {
            throw BenchmarkError("durable: wrong Undo texts")
        }
        guard try items.count() == n, history.count == n else {
            throw BenchmarkError("durable: \(try items.count()) items or \(history.count) entries, expected \(n)")
        }
        return elapsed
    }

    // MARK: open

    /// With `keepsBranches`, each history is a tree: its last 3 steps undone and a new step pushed
    /// (the 3 parked as a branch), opened as the album library opens its history.
    func open(_ n: Int, keepsBranches: Bool = false) throws {
        let large = path("open-large.sqlite")
        let small = path("open-small.sqlite")
        let buildStart = clock.now
        try build(large, entries: n, keepsBranches: keepsBranches)
        let buildTime = clock.now - buildStart
        try build(small, entries: 10, keepsBranches: keepsBranches)
        // Alternate the two so the page cache and machine load treat them alike.
        var largeTimes: [Duration] = []
        var smallTimes: [Duration] = []
        for _ in 0..<15 {
            largeTimes.append(try timeOpen(large, entries: n, keepsBranches: keepsBranches))
            smallTimes.append(try timeOpen(small, entries: 10, keepsBranches: keepsBranches))
        }
        let largeMedian = largeTimes.sorted()[largeTimes.count / 2]
        let smallMedian = smallTimes.sorted()[smallTimes.count / 2]
        let size = (try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0
        print(
            "suite=store workload=\(keepsBranches ? "open-tree" : "open") n=\(n) file_bytes=\(size) build_s=\(String(format: "%.1f", BenchmarkMath.seconds(buildTime)))"
        )
        print("  open_\(n)_us=\(String(format: "%.1f", BenchmarkMath.seconds(largeMedian) * 1e6))")
        print("  open_10_us=\(String(format: "%.1f", BenchmarkMath.seconds(smallMedian) * 1e6))")
        print(
            "  ratio_open_\(n)_to_10=\(String(format: "%.3f", BenchmarkMath.seconds(largeMedian) / BenchmarkMath.seconds(smallMedian))) (target <= \(keepsBranches ? "1.1" : "2"))"
        )
    }

    func poll(_ n: Int) throws {
        let file = path("poll.sqlite")
        try build(file, entries: 1000)
        let watching = try Database.openStore(
            path: file, schemas: [Items.schema], configuration: configuration(.normal))
        let writing = try Database.openStore(path: file, schemas: [Items.schema], configuration: configuration(.normal))
        defer {
            watching.close()
            writing.close()
        }
        let view = try DurableHistory(database: watching, receiver: Items(database: watching), registry: registry)
        let writer = try DurableHistory(database: writing, receiver: Items(database: writing), registry: registry)
        _ = view.model  // observed, as a view is: a reread also reads the texts
        var changed = 0
        let idle = try clock.measure {
            for _ in 0..<n where try view.refresh() { changed += 1 }
        }
        guard changed == 0 else { throw BenchmarkError("check failed: refresh() saw \(changed) changes nobody made") }
        let rounds = max(1, n / 100)
        var reread = Duration.zero
        for round in 0..<rounds {
            try writer.push(AddItem(title: title(round)))
            reread += try clock.measure {
                guard try view.refresh() else { throw BenchmarkError("check failed: refresh() missed a commit") }
            }
        }
        guard view.count == writer.count else { throw BenchmarkError("check failed: the view's count differs") }
        print("suite=store workload=poll n=\(n)")
        print("  refresh_unchanged_us=\(String(format: "%.2f", BenchmarkMath.seconds(idle) / Double(n) * 1e6))")
        print(
            "  refresh_after_commit_us=\(String(format: "%.2f", BenchmarkMath.seconds(reread) / Double(rounds) * 1e6))")
        print(
            "  idle_core_percent_at_10_polls_per_s=\(String(format: "%.4f", BenchmarkMath.seconds(idle) / Double(n) * 10 * 100))"
        )
    }

    /// A history of `entries` pushes (inside one enclosing transaction, so building is quick), 3 undone.
    private func build(_ path: String, entries: Int, keepsBranches: Bool = false) throws {
        let db = try Database.openStore(path: path, schemas: [Items.schema], configuration: configuration(.normal))
        let history = try DurableHistory(
            database: db, receiver: Items(database: db), registry: registry, keepsBranches: keepsBranches)
        var pushed = 0
        while pushed < entries {
            let batch = min(100_000, entries - pushed)
            try db.inTransaction {
                for i in pushed..<(pushed + batch) { try history.push(AddItem(title: title(i))) }
                return .commit
            }
            pushed += batch
        }
        for _ in 0..<3 { try history.undo() }
        if keepsBranches {
            // A branch: the 3 undone steps parked beside a new one, which is then undone too.
            try history.push(AddItem(title: "branch"))
            try history.undo()
            guard try history.nodes().filter({ !$0.isOnPath }).count == 3 else {
                throw BenchmarkError("open-tree: the 3 undone steps are not parked")
            }
        }
        db.close()
    }

    /// The time to open the store and its history and read the Undo/Redo texts.
    private func timeOpen(_ path: String, entries: Int, keepsBranches: Bool = false) throws -> Duration {
        let start = clock.now
        let db = try Database.openStore(path: path, schemas: [Items.schema])
        let history = try DurableHistory(
            database: db, receiver: Items(database: db), registry: registry, keepsBranches: keepsBranches)
        let texts = (history.undoText, history.redoText)
        let elapsed = clock.now - start
        // In the tree, the path is the trunk and the new (undone) step; the 3 steps are parked.
        let count = keepsBranches ? entries - 2 : entries
        guard history.count == count, history.index == entries - 3, texts == ("Add Item", "Add Item") else {
            throw BenchmarkError("open: reopened history is wrong (\(history.state))")
        }
        db.close()
        return elapsed
    }
}
