#if PostgreSQL
import PostgreSQLCommandStore
import PostgreSQLDatabase
import PostgreSQLTestSupport

/// A client: a connection, the receiver on it, and the history.
struct Client {
    let lines: PostgreSQLLines
    let history: PostgreSQLHistory<PostgreSQLLines>

    init(
        _ database: PostgreSQLTestServer.Database, author: String? = nil,
        isolation: PostgreSQLConnection.Isolation = .readCommitted, keepsBranches: Bool = false
    ) throws {
        lines = try PostgreSQLLines(connection: try database.connect())
        history = try PostgreSQLHistory(
            connection: lines.connection, receiver: lines, registry: PostgreSQLLines.registry, isolation: isolation,
            keepsBranches: keepsBranches)
        history.author = author
    }
}
#endif
