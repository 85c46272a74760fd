/// One row of a query result: its values by column index or name.
///
/// A row owns copies of its values, so it stays valid after the statement moves on.
///
/// ```swift
/// let row = try db.fetchOne("SELECT id, title, year FROM album WHERE id = ?", [7])!
/// let id = try row.decode(Int.self, at: 0)
/// let title = try row.decode(String.self, column: "title")
/// let year = try row.decode(Int?.self, column: "year")   // NULL reads as nil
/// ```
public struct Row: Sendable, Hashable {
    /// The column names, in order (shared by every row of one statement).
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [DatabaseValue]
    /// The statement the row came from, for error messages.
    let sql: String?

    /// Creates a row from names and values of equal count.
    public init(columnNames: [String], values: [DatabaseValue]) {
        precondition(columnNames.count == values.count, "a row needs one name per value")
        self.init(columnNames: columnNames, values: values, sql: nil)
    }

    init(columnNames: [String], values: [DatabaseValue], sql: String?) {
        self.columnNames = columnNames
        self.values = values
        self.sql = sql
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at a column index (0-based).
    ///
    /// - Precondition: `index` is in `0..<count`.
    public subscript(index: Int) -> DatabaseValue {
        values[index]
    }

    /// The value of the first column with this name (case-insensitive, as in SQL), or `nil` if none.
    public subscript(column: String) -> DatabaseValue? {
        index(ofColumn: column).map { values[$0] }
    }

    /// The index of the first column with this name (case-insensitive), or `nil` if none.
    public func index(ofColumn name: String) -> Int? {
        columnNames.firstIndex { $0 == name } ?? columnNames.firstIndex { $0.lowercased() == name.lowercased() }
    }

    /// Reads a column as a Swift value.
    ///
    /// - Parameters:
    ///   - type: The type to read; an `Optional` reads NULL as `nil`.
    ///   - index: The column index (0-based).
    /// - Returns: The converted value.
    /// - Throws: ``DatabaseError`` with code `range` for a bad index, `mismatch` when the stored value
    ///   does not convert (NULL into a non-optional, text into a number).
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, at index: Int
    ) throws
        -> Value
    {
        guard values.indices.contains(index) else {
            throw DatabaseError(
                resultCode: .range, message: "no column at index \(index) (the row has \(count))", sql: sql)
        }
        guard let value = Value(databaseValue: values[index]) else {
            throw DatabaseError(
                resultCode: .mismatch,
                message:
                    "column \(index) (\(columnNames[index])) holds \(values[index]), which does not convert to \(Value.self)",
                sql: sql
            )
        }
        return value
    }

    /// Reads a named column as a Swift value.
    ///
    /// - Parameters:
    ///   - type: The type to read; an `Optional` reads NULL as `nil`.
    ///   - column: The column name (case-insensitive).
    /// - Returns: The converted value.
    /// - Throws: ``DatabaseError`` with code `range` for an unknown column, `mismatch` when the value
    ///   does not convert.
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, column: String
    ) throws
        -> Value
    {
        guard let index = index(ofColumn: column) else {
            throw DatabaseError(
                resultCode: .range,
                message: "no column named \(column) (columns: \(columnNames.joined(separator: ", ")))",
                sql: sql
            )
        }
        return try decode(type, at: index)
    }
}
