/// One step of a ``Schema``: the changes that take a database from `version - 1` to `version`.
///
/// Migrations run at open, inside the one transaction that upgrades the file; if any throws, the
/// whole upgrade rolls back and the file stays as it was.
///
/// ```swift
/// let albums = Schema(identifier: "albums", migrations: [
///     Migration(version: 1, name: "albums table", sql: """
///         CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL, position INTEGER NOT NULL)
///         """),
///     Migration(version: 2, name: "album year") { db in
///         try db.execute("ALTER TABLE album ADD COLUMN year INTEGER")
///     },
/// ])
/// ```
public struct Migration: Sendable {
    /// The schema version this migration produces (1 for the first).
    public let version: Int
    /// A short description, for messages.
    public let name: String
    /// The changes.
    public let body: @Sendable (Database) throws -> Void

    /// Creates a migration that runs Swift code.
    ///
    /// - Parameters:
    ///   - version: The version it produces; a schema's migrations are numbered 1, 2, 3...
    ///   - name: A short description.
    ///   - body: The changes, made through the database it is given (already in a transaction).
    public init(version: Int, name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.name = name
        self.body = body
    }

    /// Creates a migration that runs SQL statements (separated by semicolons, no parameters).
    ///
    /// - Parameters:
    ///   - version: The version it produces.
    ///   - name: A short description.
    ///   - sql: The statements.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { db in try db.execute(sql) }
    }
}

/// A named, versioned set of tables: the store's own, or an application's.
///
/// A CommandStore file records, for each schema identifier, the version it is at. Opening it with
/// `Database.openStore(path:schemas:configuration:)` (CommandStore) runs the missing migrations in one
/// transaction, and refuses (without touching the file) a file whose recorded version is higher
/// than the last migration given: it was written by a newer program.
public struct Schema: Sendable {
    /// A stable name (`"albums"`). `"commandstore"` is the store's own.
    public let identifier: String
    /// The migrations, numbered 1, 2, 3... in order.
    public let migrations: [Migration]

    /// The version this program knows: the last migration's (0 without migrations).
    public var version: Int { migrations.last?.version ?? 0 }

    /// Creates a schema.
    ///
    /// - Parameters:
    ///   - identifier: A stable name for the schema.
    ///   - migrations: Its migrations, numbered 1, 2, 3... (checked at open).
    public init(identifier: String, migrations: [Migration]) {
        self.identifier = identifier
        self.migrations = migrations
    }
}
