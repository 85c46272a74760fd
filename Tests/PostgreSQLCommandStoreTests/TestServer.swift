#if PostgreSQL
import CommandStore
import PostgreSQLCommandStore
import Foundation
import PostgreSQLDatabase

/// The server the tests run against: `COMMANDKIT_POSTGRES_URL` (Scripts/postgres.sh start). Without
/// it the suites are skipped on a developer's machine and fail in CI, as PostgreSQLDatabaseTests.
enum TestServer {
    static let url = ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"]

    /// Whether the suites run: a server is named, or this is CI, where its absence is a failure.
    static var isEnabled: Bool { url != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// A schema of its own for one test (dropped by ``drop()``), and a connection string whose
    /// sessions use it: the search path travels in the string's `options`, so a session started
    /// again after a lost connection uses it too.
    struct Database {
        let schema: String
        let url: String

        init() throws {
            guard let base = TestServer.url, var components = URLComponents(string: base) else {
                throw PostgreSQLError(
                    .connectionRefused, "COMMANDKIT_POSTGRES_URL is not set (Scripts/postgres.sh start)")
            }
            schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            // libpq reads one `=` per query item: the one inside the option is escaped.
            let query =
                (components.percentEncodedQuery.map { $0 + "&" } ?? "")
                + "options=-csearch_path%3D\(schema)%20-cclient_min_messages%3Derror"
            components.percentEncodedQuery = query
            url = components.string ?? base
            let admin = try PostgreSQLConnection(connectingTo: base)
            // Test code: the schema name is generated above, never input.
            try admin.execute("CREATE SCHEMA \(schema)")
        }

        /// A new client of this database.
        func connect() throws -> PostgreSQLConnection {
            try PostgreSQLConnection(connectingTo: url)
        }

        func drop() {
            guard let base = TestServer.url, let admin = try? PostgreSQLConnection(connectingTo: base) else { return }
            _ = try? admin.execute("SET client_min_messages TO warning")
            _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE")
        }
    }
}

/// The receiver: lines in a table, written through the history's connection.
final class Lines {
    static let schema = PostgreSQLSchema(
        identifier: "lines",
        migrations: [
            PostgreSQLMigration(
                version: 1, name: "lines",
                statements: ["CREATE TABLE line (position bigserial PRIMARY KEY, value text NOT NULL)"])
        ])

    static var registry: CommandRegistry<Lines> {
        var registry = CommandRegistry<Lines>()
        registry.register(AddLine.self)
        return registry
    }

    let connection: PostgreSQLConnection
    /// `k > 0`: the k-th command call from now throws after writing (tests only).
    var failCountdown = 0
    /// Runs inside each command, after its write (fault injection).
    var hook: (() throws -> Void)?

    init(connection: PostgreSQLConnection) throws {
        self.connection = connection
        try connection.migrate(Self.schema)
    }

    func lines() throws -> [String] {
        try connection.query("SELECT value FROM line ORDER BY position").map { try $0.decode(String.self, at: 0) ?? "" }
    }

    func tick() throws {
        try hook?()
        guard failCountdown > 0 else { return }
        failCountdown -= 1
        if failCountdown == 0 { throw LineFailure() }
    }
}

struct LineFailure: Error {}

/// Appends a line; undo removes the last one. A failure is injected after the write, so a failed
/// call shows its write rolled back.
struct AddLine: PersistentCommand {
    static let kind = "test.line"
    var line: String
    var significant = true

    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }
    var isSignificant: Bool { significant }

    func redo(on lines: Lines) throws {
        try lines.connection.execute("INSERT INTO line (value) VALUES ($1)", [line])
        try lines.tick()
    }

    func undo(on lines: Lines) throws {
        try lines.connection.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
        try lines.tick()
    }
}

/// A client: a connection, the receiver on it, and the history.
struct Client {
    let lines: Lines
    let history: PostgreSQLHistory<Lines>

    init(
        _ database: TestServer.Database, author: String? = nil,
        isolation: PostgreSQLConnection.Isolation = .readCommitted
    ) throws {
        let connection = try database.connect()
        lines = try Lines(connection: connection)
        history = try PostgreSQLHistory(
            connection: connection, receiver: lines, registry: Lines.registry, isolation: isolation)
        history.author = author
    }
}
#endif
