import Foundation

/// A schema of its own on a PostgreSQL server for one test (or round), made and dropped with `psql`, and the
/// URL whose sessions use it (the search path travels in the URL's `options`, so a session started
/// again after a lost connection uses it too).
public struct PostgreSQLTestSchema: Sendable {
    /// The schema's name.
    public let name: String
    /// The server's URL, as given.
    public let base: String
    /// The URL whose sessions use the schema.
    public let url: String

    /// Makes the schema on the server `base` names.
    public init(base: String) throws {
        guard var components = URLComponents(string: base) else {
            throw SchemaError(description: "the server's URL is not a URL")
        }
        name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        self.base = base
        // libpq reads one `=` per query item: the one inside the option is escaped.
        components.percentEncodedQuery =
            (components.percentEncodedQuery.map { $0 + "&" } ?? "") + "options=-csearch_path%3D\(name)"
        url = components.string ?? base
        try Self.run(base, "CREATE SCHEMA \(name)")
    }

    /// Drops the schema and everything in it.
    public func drop() {
        try? Self.run(base, "DROP SCHEMA \(name) CASCADE")
    }

    /// Runs one statement with `psql` on the server `url` names (test code: the statements are
    /// the tests' own, never input).
    public static func run(_ url: String, _ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statement]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SchemaError(description: "psql failed (\(process.terminationStatus)): \(statement)")
        }
    }
}

/// Why a test schema could not be made.
public struct SchemaError: Error, CustomStringConvertible {
    /// What failed.
    public var description: String
}
