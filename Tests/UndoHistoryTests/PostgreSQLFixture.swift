#if PostgreSQL
import CommandKit
import CommandStore
import Foundation
import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport
import Testing

/// The PostgreSQL conformer: lines in a table of a schema of its own on the server
/// `COMMANDKIT_POSTGRES_URL` names (Scripts/postgres.sh start).
struct PostgreSQLFixture: HistoryFixture {
    let database: PostgreSQLTestServer.Database
    let store: PostgreSQLLines
    let history: PostgreSQLHistory<PostgreSQLLines>

    init(keepsBranches: Bool = false) throws {
        database = try PostgreSQLTestServer.Database()
        store = try PostgreSQLLines(connection: try database.connect())
        history = try PostgreSQLHistory(
            connection: store.connection, receiver: store, registry: PostgreSQLLines.registry,
            keepsBranches: keepsBranches)
    }

    func push(_ line: String, significant: Bool) throws {
        try history.push(PostgreSQLLine(line: line, significant: significant))
    }

    func lines() throws -> [String] { try store.lines() }

    func failUndo(after n: Int) {
        var remaining = n
        store.hook =
            n == 0
            ? nil
            : { call in
                guard call == .undo else { return }
                remaining -= 1
                if remaining == 0 { throw LineFailure() }
            }
    }

    func text(of command: DurableCommand<PostgreSQLLines>) -> String { command.text }

    /// Rewrites the entry's payload from another client, as `DurableFixture.retire(_:)` does.
    func retire(_ line: String) throws {
        let other = try database.connect()
        let payload = try JSONEncoder().encode(PostgreSQLLine(line: line, retired: true))
        let changed = try other.execute(
            "UPDATE commandstore_history_entry SET payload = $1 WHERE text = $2", [payload, "Add \(line)"])
        #expect(changed == 1)
        // Another client's write outside the history: it takes a revision, as any change does.
        try other.execute("UPDATE commandstore_history_header SET revision = revision + 1")
    }

    func remove() { database.drop() }
}
#endif
