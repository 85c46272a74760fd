public import Foundation

/// A value stored in, or bound to, an SQLite database: one of SQLite's five storage classes.
///
/// SQLite stores every value as NULL, a 64-bit signed integer, a double, a UTF-8 string or a blob.
/// ``DatabaseValue`` names them, so bound parameters and read columns never go through SQL text.
///
/// ```swift
/// try db.execute("INSERT INTO album (title, year) VALUES (?, ?)", ["Kind of Blue", 1959])
/// let row = try db.fetchOne("SELECT title FROM album WHERE year = ?", [1959])
/// let title = try row?.decode(String.self, at: 0)
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
public enum DatabaseValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// A UTF-8 string.
    case text(String)
    /// Raw bytes.
    case blob(Data)

    /// Whether this is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// A short rendering for messages: `NULL`, `42`, `1.5`, `'text'`, `<blob: 3 bytes>`.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let value): "<blob: \(value.count) bytes>"
        }
    }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    /// Creates SQL NULL.
    public init(nilLiteral: ()) { self = .null }
    /// Creates an integer value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Creates a real value.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// Creates a text value.
    public init(stringLiteral value: String) { self = .text(value) }
    /// Creates the integer 1 or 0, SQLite's booleans.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
