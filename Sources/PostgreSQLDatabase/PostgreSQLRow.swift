#if PostgreSQL
/// One row of a result: each column's text, `nil` for SQL `NULL`.
public struct PostgreSQLRow: Sendable, Hashable {
    /// The columns' texts, in the order the query selected them.
    public var columns: [String?]

    /// Creates a row from its columns' texts.
    public init(columns: [String?]) { self.columns = columns }

    /// The column at `index` as a `T`, or `nil` when it is `NULL`.
    ///
    /// - Throws: ``PostgreSQLError/Code/typeMismatch`` when the text is not a `T`, or the index
    ///   is past the last column.
    public func decode<T: PostgreSQLValue>(_ type: T.Type, at index: Int) throws(PostgreSQLError) -> T? {
        guard columns.indices.contains(index) else {
            throw PostgreSQLError(.typeMismatch, "column \(index) is past the row's \(columns.count) columns")
        }
        guard let text = columns[index] else { return nil }
        guard let value = T(postgreSQLText: text) else {
            throw PostgreSQLError(.typeMismatch, "column \(index) does not hold a \(T.self)")
        }
        return value
    }
}
#endif
