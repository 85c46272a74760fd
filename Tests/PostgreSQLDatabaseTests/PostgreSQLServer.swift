#if PostgreSQL
import Foundation
import PostgreSQLDatabase

/// The server the tests run against: `COMMANDKIT_POSTGRES_URL` (Scripts/test.sh starts one with
/// Scripts/postgres.sh). Without it the suite is skipped on a developer's machine and fails in CI.
enum PostgreSQLServer {
    static let url = ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"]

    /// Whether the suite runs: a server is named, or this is CI, where its absence is a failure.
    static var isEnabled: Bool { url != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

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
