#if PostgreSQL
/// One numbered step of a ``PostgreSQLSchema``: the changes that take a database from the version
/// before to ``version``, run inside the migrating transaction (PostgreSQL's DDL is transactional,
/// so a failing migration leaves nothing behind).
public struct PostgreSQLMigration: Sendable {
    /// The version this migration produces (1 for the first).
    public let version: Int
    /// A short description, for messages.
    public let name: String
    /// The changes, made through the connection it is given (inside the transaction).
    public let body: @Sendable (PostgreSQLConnection) throws -> Void

    /// Creates a migration that runs Swift code.
    ///
    /// - Parameters:
    ///   - version: The version it produces; a schema's migrations are numbered 1, 2, 3…
    ///   - name: A short description.
    ///   - body: The changes.
    public init(version: Int, name: String, _ body: @escaping @Sendable (PostgreSQLConnection) throws -> Void) {
        self.version = version
        self.name = name
        self.body = body
    }

    /// Creates a migration that runs SQL statements, one after another (no parameters).
    ///
    /// - Parameters:
    ///   - version: The version it produces.
    ///   - name: A short description.
    ///   - statements: The statements.
    public init(version: Int, name: String, statements: [String]) {
        self.init(version: version, name: name) { connection in
            for statement in statements { try connection.execute(statement) }
        }
    }
}
#endif
