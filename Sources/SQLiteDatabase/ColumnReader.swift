internal import CSQLite
import Foundation

/// The current row of a running statement, read in place.
///
/// ``Statement/readEachRow(_:_:)`` lends one to its closure for each result row. A column read
/// through it is copied out of SQLite alone: no ``Row`` and no ``DatabaseValue`` is made for the
/// row, which is what makes reading a long result fast (100,000 albums read in about a quarter of
/// the instructions that building rows took). It cannot be copied, so it cannot outlive the call
/// that lends it, when the statement moves to the next row.
///
/// ```swift
/// try statement.readEachRow { columns in
///     titles.append(try columns.text(at: 0))
///     years.append(columns.isNull(at: 1) ? nil : try columns.integer(at: 1))
/// }
/// ```
///
/// The typed reads check the stored type and throw instead of converting: a damaged or
/// unexpected value is an error, as ``Row/decode(_:at:)`` makes it.
public struct ColumnReader: ~Copyable {
    private let handle: OpaquePointer
    private let sql: String
    private let columnNames: [String]

    init(handle: OpaquePointer, sql: String, columnNames: [String]) {
        self.handle = handle
        self.sql = sql
        self.columnNames = columnNames
    }

    /// The number of columns.
    public var count: Int { columnNames.count }

    /// Whether the column holds NULL.
    ///
    /// - Precondition: `column` is in `0..<count`.
    public func isNull(at column: Int) -> Bool {
        precondition(columnNames.indices.contains(column), "no column at index \(column)")
        return sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    /// The column's value, copied.
    ///
    /// - Precondition: `column` is in `0..<count`.
    public subscript(column: Int) -> DatabaseValue {
        precondition(columnNames.indices.contains(column), "no column at index \(column)")
        return Self.value(handle, Int32(column))
    }

    /// The column's text.
    ///
    /// - Parameter column: The column index (0-based).
    /// - Returns: The text (invalid UTF-8 repaired, as `String(decoding:as:)` does).
    /// - Throws: ``DatabaseError`` with code `mismatch` when the column holds anything but text.
    public func text(at column: Int) throws -> String {
        try expect(SQLITE_TEXT, at: column, "String")
        guard let text = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Lends `body` the column's text as UTF-8 bytes, in place: nothing is copied.
    ///
    /// - Parameters:
    ///   - column: The column index (0-based).
    ///   - body: Reads the bytes; they are valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: ``DatabaseError`` with code `mismatch` when the column holds anything but text,
    ///   or what `body` throws.
    public func withUTF8<Result>(
        at column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result {
        try expect(SQLITE_TEXT, at: column, "String")
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return try body(UnsafeBufferPointer(start: sqlite3_column_text(handle, Int32(column)), count: count))
    }

    /// The column's integer.
    ///
    /// - Parameter column: The column index (0-based).
    /// - Returns: The integer.
    /// - Throws: ``DatabaseError`` with code `mismatch` when the column holds anything but an integer.
    public func integer(at column: Int) throws -> Int64 {
        try expect(SQLITE_INTEGER, at: column, "Int64")
        return sqlite3_column_int64(handle, Int32(column))
    }

    private func expect(_ type: Int32, at column: Int, _ typeName: String) throws {
        precondition(columnNames.indices.contains(column), "no column at index \(column)")
        guard sqlite3_column_type(handle, Int32(column)) == type else {
            throw DatabaseError(
                resultCode: .mismatch,
                message: "column \(column) (\(columnNames[column])) holds \(self[column]), which is not a \(typeName)",
                sql: sql
            )
        }
    }

    /// A column's value as SQLite stores it: the one conversion from SQLite's types, rows use it too.
    static func value(_ handle: OpaquePointer, _ column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column))))
        default:
            return .null
        }
    }
}

@available(
    *, unavailable, message: "A ColumnReader reads its statement's current row, in the statement's isolation domain."
)
extension ColumnReader: Sendable {}
