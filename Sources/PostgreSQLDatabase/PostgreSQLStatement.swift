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

    /// Creates a statement.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - parameters: The values of `$1`, `$2`, …; `nil` binds `NULL`.
    public init(_ sql: String, _ parameters: [(any PostgreSQLValue)?] = []) {
        self.sql = sql
        parameterTexts = parameters.map { $0?.postgreSQLText }
    }
}
#endif
