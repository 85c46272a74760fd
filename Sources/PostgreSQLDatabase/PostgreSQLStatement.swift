#if PostgreSQL
/// One statement with its bound parameters, for ``PostgreSQLConnection/pipeline(_:)``: SQL text
/// with `$1`, `$2`, … and the values those stand for.
///
/// ```swift
/// let insert = PostgreSQLStatement("INSERT INTO album (id, title) VALUES ($1, $2)", [UUID(), "Blue Train"])
/// ```
public struct PostgreSQLStatement: Sendable, Hashable {
    /// One SQL statement; its values are `$1`, `$2`, …, never spelled into the text.
    public var sql: String
    /// The text forms of the values of `$1`, `$2`, … (``PostgreSQLValue/postgreSQLText``), as
    /// they are sent; `nil` binds `NULL`.
    public var parameterTexts: [String?]
    /// Whether the connection prepares the statement once per session and runs the prepared form
    /// from then on, so the server parses and plans its SQL once, not at every run.
    ///
    /// For fixed SQL run often (a history's reads and writes); not for SQL assembled anew each
    /// time, which would fill the session with statements used once. The preparation travels in
    /// the same round trip as the statement's first run. Not for a server reached through a pooler
    /// in transaction mode, which may hand each transaction another session.
    public var isPrepared: Bool

    /// Creates a statement.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - parameters: The values of `$1`, `$2`, …; `nil` binds `NULL`.
    ///   - prepared: Whether the connection prepares it once per session (``isPrepared``).
    public init(_ sql: String, _ parameters: [(any PostgreSQLValue)?] = [], prepared: Bool = false) {
        self.sql = sql
        parameterTexts = parameters.map { $0?.postgreSQLText }
        isPrepared = prepared
    }
}
#endif
