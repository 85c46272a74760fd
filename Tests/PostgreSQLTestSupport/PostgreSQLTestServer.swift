#if PostgreSQL
import Foundation
package import PostgreSQLDatabase

/// The server the PostgreSQL tests run against: `COMMANDKIT_POSTGRES_URL` (Scripts/postgres.sh
/// start). Without it the suites are skipped on a developer's machine and fail in CI.
package enum PostgreSQLTestServer {
    package static let url = ProcessInfo.processInfo.environment["COMMANDKIT_POSTGRES_URL"]

    /// Whether the suites run: a server is named, or this is CI, where its absence is a failure.
    package static var isEnabled: Bool { url != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// A schema of its own for one test (dropped by ``drop()``), and a connection string whose
    /// sessions use it: the search path travels in the string's `options`, so a session started
    /// again after a lost connection uses it too.
    package struct Database: Sendable {
        package let schema: String
        package let url: String

        package init() throws {
            guard let base = PostgreSQLTestServer.url, var components = URLComponents(string: base) else {
                throw PostgreSQLError(
                    .connectionRefused, "COMMANDKIT_POSTGRES_URL is not set (Scripts/postgres.sh start)")
            }
            schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            // libpq reads one `=` per query item: the one inside the option is escaped.
            components.percentEncodedQuery =
                (components.percentEncodedQuery.map { $0 + "&" } ?? "")
                + "options=-csearch_path%3D\(schema)%20-cclient_min_messages%3Derror"
            url = components.string ?? base
            // Test code: the schema name is generated above, never input.
            try PostgreSQLConnection(connectingTo: base).execute("CREATE SCHEMA \(schema)")
        }

        /// A new client of this database.
        package func connect() throws -> PostgreSQLConnection {
            try PostgreSQLConnection(connectingTo: url)
        }

        package func drop() {
            guard let base = PostgreSQLTestServer.url, let admin = try? PostgreSQLConnection(connectingTo: base) else {
                return
            }
            _ = try? admin.execute("SET client_min_messages TO warning")
            _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE")
        }
    }
}
#endif
