// The postgres suite (issue 28): PostgreSQLHistory's pushes against a raw libpq transaction
// writing the same two rows, side by side in one run. Built only with the app's `PostgreSQL` trait.
//
//     swift run -c release --traits PostgreSQL command-bench postgres [commits N] [--url URL]
//     swift run -c release --traits PostgreSQL command-bench postgres clients C [changes N] [--url URL]
//
// The server: --url, else COMMANDKIT_POSTGRES_URL (Scripts/postgres.sh start). Everything lives
// in a schema of its own, dropped at the end.
//
// commits N (default 2000): N commands pushed on a PostgreSQLHistory, each push its own
// transaction; the command inserts its payload (a 64-byte title) into the receiver's table and the
// history adds its record. The baseline, "raw": N transactions (BEGIN, two INSERTs, COMMIT through
// the same PostgreSQLConnection) writing the same payload row and an entry-sized row of the
// history's shape, its JSON encoded before timing. With synchronous_commit on (durable) and off
// (round trips and CPU only); the two interleaved in 4 rounds, medians; prints commits_per_s and
// the ratio durable / raw (issue target ≥ 0.8).
//
// clients C [changes N]: concurrent albums clients on one library (PostgreSQLClientsBenchmark.swift).

#if PostgreSQL
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase

enum PostgreSQLBenchmark {
    static func run(_ arguments: [String]) throws {
        var arguments = arguments
        var url = ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"]
        if let flag = arguments.firstIndex(of: "--url"), flag + 1 < arguments.count {
            url = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        guard let url else { throw BenchmarkError("no server: --url URL or COMMANDKIT_POSTGRES_URL") }
        if arguments.first == "clients" {
            return try PostgreSQLClientsBenchmark.run(Array(arguments.dropFirst()), url: url)
        }
        var commits = 2000
        if arguments.count == 2, arguments[0] == "commits", let n = Int(arguments[1]), n > 0 {
            commits = n
        } else if !arguments.isEmpty {
            throw BenchmarkError(
                "usage: command-bench postgres [commits N | clients C [changes N]] [--url URL]")
        }
        let server = try BenchServer(url: url)
        defer { server.drop() }
        for synchronous in ["on", "off"] {
            try PostgreSQLWorkloads(server: server, synchronous: synchronous).commits(commits)
        }
    }
}

/// A schema of the benchmark's own on the server, and connection strings that use it.
struct BenchServer {
    let base: String
    let url: String
    let schema: String

    /// - Parameters:
    ///   - url: The server's URL.
    ///   - suffix: Letters, digits and underscores after the schema's name (`bench_<pid>`), for
    ///     a run that uses several schemas.
    ///   - synchronousCommit: `on` or `off` for every session the URL opens; the server's
    ///     setting when `nil`.
    init(url base: String, suffix: String = "", synchronousCommit: String? = nil) throws {
        guard var components = URLComponents(string: base) else { throw BenchmarkError("not a URL: \(base)") }
        guard
            suffix.utf8.allSatisfy({
                $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0)
            })
        else { throw BenchmarkError("not a schema suffix: \(suffix)") }
        schema = "bench_\(getpid())\(suffix)"
        let synchronous = synchronousCommit.map { "%20-csynchronous_commit%3D\($0 == "on" ? "on" : "off")" } ?? ""
        components.percentEncodedQuery =
            (components.percentEncodedQuery.map { $0 + "&" } ?? "")
            + "options=-csearch_path%3D\(schema)%20-cclient_min_messages%3Derror\(synchronous)"
        self.base = base
        url = components.string ?? base
        // The schema name is made above from the process id and a checked suffix, never input.
        try PostgreSQLConnection(connectingTo: base).execute("CREATE SCHEMA \(schema)")
    }

    func connect() throws -> PostgreSQLConnection { try PostgreSQLConnection(connectingTo: url) }

    func drop() {
        guard let admin = try? PostgreSQLConnection(connectingTo: base) else { return }
        _ = try? admin.execute("SET client_min_messages TO warning")
        _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE")
    }
}

/// The receiver: a table of items.
private final class ServerItems {
    static let schema = PostgreSQLSchema(
        identifier: "bench",
        migrations: [
            PostgreSQLMigration(
                version: 1, name: "items",
                statements: [
                    "CREATE TABLE item (id bigserial PRIMARY KEY, title text NOT NULL)",
                    // The raw baseline's entry rows: the shape of a history entry.
                    """
                    CREATE TABLE raw_entry (
                        sequence bigint PRIMARY KEY, kind text, version integer NOT NULL, text text NOT NULL,
                        action_text text NOT NULL, merge_id bigint, significant boolean NOT NULL,
                        payload bytea NOT NULL, token bigint NOT NULL, recorded_at bigint NOT NULL,
                        author text, node bigint NOT NULL
                    )
                    """,
                ])
        ])

    let connection: PostgreSQLConnection

    init(connection: PostgreSQLConnection) throws {
        self.connection = connection
        try connection.migrate(Self.schema)
    }

    func insert(_ title: String) throws -> Int64 {
        let rows = try connection.query("INSERT INTO item (title) VALUES ($1) RETURNING id", [title])
        return try rows.first?.decode(Int64.self, at: 0) ?? 0
    }

    func delete(_ id: Int64) throws {
        try connection.execute("DELETE FROM item WHERE id = $1", [id])
    }
}

/// Inserts an item; undo deletes it. Never merges.
private struct AddServerItem: PersistentCommand {
    static let kind = "bench.add-item"
    var title: String
    var id: Int64?

    var text: String { "Add Item" }

    mutating func redo(on items: ServerItems) throws { id = try items.insert(title) }
    func undo(on items: ServerItems) throws { if let id { try items.delete(id) } }
}

private struct PostgreSQLWorkloads {
    let server: BenchServer
    let synchronous: String
    let clock = ContinuousClock()

    /// A 64-byte title for command `i`.
    func title(_ i: Int) -> String {
        let digits = String(i)
        return "Album title number " + String(repeating: "x", count: 64 - 19 - digits.count) + digits
    }

    func connect() throws -> ServerItems {
        let connection = try server.connect()
        // A session setting, on the one connection each side uses: "on" waits for the WAL flush.
        try connection.execute("SELECT set_config('synchronous_commit', $1, false)", [synchronous])
        return try ServerItems(connection: connection)
    }

    func commits(_ n: Int) throws {
        var registry = CommandRegistry<ServerItems>()
        registry.register(AddServerItem.self)
        var durable: [Double] = []
        var raw: [Double] = []
        // The other setting's run left its rows: the baseline's keys start again.
        try connect().connection.execute("DELETE FROM raw_entry")
        for round in 0..<4 {
            let items = try connect()
            let history = try PostgreSQLHistory(
                connection: items.connection, receiver: items, registry: registry,
                tablePrefix: "h_\(synchronous)_\(round)")
            let commands = (0..<n).map { AddServerItem(title: title($0)) }
            let started = clock.now
            for command in commands { try history.push(command) }
            durable.append(Double(n) / BenchmarkMath.seconds(clock.now - started))

            let other = try connect()
            let payloads = try commands.map { try JSONEncoder().encode($0) }
            let base = Int64(round) * Int64(n)
            let rawStarted = clock.now
            for (i, payload) in payloads.enumerated() {
                try other.connection.inTransaction(.readCommitted) {
                    _ = try other.insert(commands[i].title)
                    try other.connection.execute(
                        """
                        INSERT INTO raw_entry (sequence, kind, version, text, action_text, merge_id, significant,
                            payload, token, recorded_at, author, node)
                        VALUES ($1, 'bench.add-item', 1, 'Add Item', 'Add Item', NULL, true, $2, $3, $4, NULL, $5)
                        """, [base + Int64(i), payload, Int64(i) &* 2_654_435_761, Int64(i), base + Int64(i) + 1])
                }
            }
            raw.append(Double(n) / BenchmarkMath.seconds(clock.now - rawStarted))
        }
        let (d, r) = (BenchmarkMath.median(durable), BenchmarkMath.median(raw))
        print(
            "postgres commits=\(n) synchronous_commit=\(synchronous) durable_commits_per_s=\(Int(d)) "
                + "raw_commits_per_s=\(Int(r)) ratio=\(String(format: "%.2f", d / r))")
    }
}
#endif
