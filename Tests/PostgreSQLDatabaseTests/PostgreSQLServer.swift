#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import PostgreSQLTestSupport

/// The server the tests run against, and its CI gate: `PostgreSQLTestServer`'s. The connections
/// below set their schema with a statement (`SET search_path`), as these tests always did.
enum PostgreSQLServer {
    static var url: String? { PostgreSQLTestServer.url }

    /// Whether the suite runs: a server is named, or this is CI, where its absence is a failure.
    static var isEnabled: Bool { PostgreSQLTestServer.isEnabled }

    /// A connection whose tables live in a schema of its own (dropped by `close`), so tests
    /// running at once never meet each other's rows.
    static func connect() throws -> (connection: PostgreSQLConnection, schema: String) {
        guard let url else {
            throw PostgreSQLError(.connectionRefused, "COMMANDKIT_POSTGRES_URL is not set (Scripts/postgres.sh start)")
        }
        let connection = try PostgreSQLConnection(connectingTo: url)
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // Test code: the schema name is generated above, never input.
        try connection.execute("CREATE SCHEMA \(schema)")
        try connection.execute("SET search_path TO \(schema)")
        return (connection, schema)
    }

    /// Another connection on the same schema (another client of the same library).
    static func connect(toSchema schema: String) throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection(connectingTo: url ?? "")
        try connection.execute("SET search_path TO \(schema)")
        return connection
    }

    static func drop(_ schema: String, using connection: PostgreSQLConnection) {
        _ = try? connection.execute("DROP SCHEMA \(schema) CASCADE")
    }

    /// The URL with another user and password (for a refused login).
    static func url(user: String, password: String) -> String? {
        guard let url, var components = URLComponents(string: url) else { return nil }
        components.user = user
        components.password = password
        return components.string
    }
}
#endif
