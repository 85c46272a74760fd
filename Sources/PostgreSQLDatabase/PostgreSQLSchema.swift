#if PostgreSQL
/// A versioned set of tables in a PostgreSQL database: its migrations, numbered 1, 2, 3…, run by
/// ``PostgreSQLConnection/migrate(_:)`` up to the last one.
///
/// The version each schema has reached is kept in the table `commandkit_schema`, one row per
/// ``identifier``, so several schemas (a history's, an application's) share one database.
public struct PostgreSQLSchema: Sendable {
    /// A stable name (`"albums"`).
    public let identifier: String
    /// The migrations, numbered 1, 2, 3… in order.
    public let migrations: [PostgreSQLMigration]

    /// The version this program knows: the last migration's (0 without migrations).
    public var version: Int { migrations.last?.version ?? 0 }

    /// Creates a schema.
    ///
    /// - Parameters:
    ///   - identifier: A stable name for the schema.
    ///   - migrations: Its migrations, numbered 1, 2, 3… (checked when they run).
    public init(identifier: String, migrations: [PostgreSQLMigration]) {
        self.identifier = identifier
        self.migrations = migrations
    }
}
#endif
