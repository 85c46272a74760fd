#if PostgreSQL
import CommandKit
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase
import Testing

/// The PostgreSQL conformer: lines in a table of a schema of its own on the server
/// `COMMANDKIT_POSTGRES_URL` names (Scripts/postgres.sh start).
enum PostgreSQLTestServer {
    static let url = ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"]

    /// Whether the conformer runs: a server is named, or this is CI, where its absence is a failure.
    static var isEnabled: Bool { url != nil || ProcessInfo.processInfo.environment["CI"] == "true" }
}

/// The receiver: lines in PostgreSQL, written through the history's connection.
final class PostgreSQLLineStore {
    static let schema = PostgreSQLSchema(
        identifier: "lines",
        migrations: [
            PostgreSQLMigration(
                version: 1, name: "lines",
                statements: ["CREATE TABLE line (position bigserial PRIMARY KEY, value text NOT NULL)"])
        ])

    static var registry: CommandRegistry<PostgreSQLLineStore> {
        var registry = CommandRegistry<PostgreSQLLineStore>()
        registry.register(PostgreSQLStoredLine.self)
        return registry
    }

    let connection: PostgreSQLConnection
    var failUndoCountdown = 0

    init(connection: PostgreSQLConnection) throws {
        self.connection = connection
        try connection.migrate(Self.schema)
    }

    func lines() throws -> [String] {
        try connection.query("SELECT value FROM line ORDER BY position").map { try $0.decode(String.self, at: 0) ?? "" }
    }
}

struct PostgreSQLStoredLine: PersistentCommand {
    static let kind = "test.line"
    var line: String
    var significant = true
    /// Set only in a stored payload (``PostgreSQLFixture/retire(_:)``): the command is obsolete then.
    var retired: Bool?

    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }
    var isSignificant: Bool { significant }
    var isObsolete: Bool { retired == true }

    func redo(on store: PostgreSQLLineStore) throws {
        try store.connection.execute("INSERT INTO line (value) VALUES ($1)", [line])
    }

    func undo(on store: PostgreSQLLineStore) throws {
        if store.failUndoCountdown > 0 {
            store.failUndoCountdown -= 1
            if store.failUndoCountdown == 0 { throw LineFailure() }
        }
        try store.connection.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
    }
}

struct PostgreSQLFixture: HistoryFixture {
    let schema: String
    let url: String
    let store: PostgreSQLLineStore
    let history: PostgreSQLHistory<PostgreSQLLineStore>

    init() throws {
        guard let base = PostgreSQLTestServer.url, var components = URLComponents(string: base) else {
            throw PostgreSQLError(.connectionRefused, "COMMANDKIT_POSTGRES_URL is not set (Scripts/postgres.sh start)")
        }
        schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // The search path travels in the connection string: a reconnected session keeps it.
        components.percentEncodedQuery =
            (components.percentEncodedQuery.map { $0 + "&" } ?? "")
            + "options=-csearch_path%3D\(schema)%20-cclient_min_messages%3Derror"
        url = components.string ?? base
        // Test code: the schema name is generated above, never input.
        try PostgreSQLConnection(connectingTo: base).execute("CREATE SCHEMA \(schema)")
        let connection = try PostgreSQLConnection(connectingTo: url)
        store = try PostgreSQLLineStore(connection: connection)
        history = try PostgreSQLHistory(
            connection: connection, receiver: store, registry: PostgreSQLLineStore.registry)
    }

    func push(_ line: String, significant: Bool) throws {
        try history.push(PostgreSQLStoredLine(line: line, significant: significant))
    }

    func lines() throws -> [String] { try store.lines() }
    func failUndo(after n: Int) { store.failUndoCountdown = n }
    func text(of command: DurableCommand<PostgreSQLLineStore>) -> String { command.text }

    /// Rewrites the entry's payload from another client, as `DurableFixture.retire(_:)` does.
    func retire(_ line: String) throws {
        let other = try PostgreSQLConnection(connectingTo: url)
        let payload = try JSONEncoder().encode(PostgreSQLStoredLine(line: line, retired: true))
        let changed = try other.execute(
            "UPDATE commandstore_history_entry SET payload = $1 WHERE text = $2", [payload, "Add \(line)"])
        #expect(changed == 1)
        // Another client's write outside the history: it takes a revision, as any change does.
        try other.execute("UPDATE commandstore_history_header SET revision = revision + 1")
    }

    func remove() {
        guard let base = PostgreSQLTestServer.url, let admin = try? PostgreSQLConnection(connectingTo: base) else {
            return
        }
        _ = try? admin.execute("SET client_min_messages TO error")
        _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE")
    }
}
#endif
