public import Foundation

/// A Swift type that converts to and from a ``DatabaseValue``.
///
/// Statement arguments are arrays of convertible values (`[title, year, cover]`), and
/// ``Row/decode(_:at:)`` reads a column back as one. The module makes `Int`, `Int64`, `Int32`,
/// `Double`, `Bool`, `String`, `Data`, ``DatabaseValue`` and `Optional` of any of them convertible.
/// Conversions are strict: an integer column reads as `Double`, but a text column never reads as a number.
public protocol DatabaseValueConvertible {
    /// The value to bind or store.
    var databaseValue: DatabaseValue { get }

    /// Creates a value from a database value, or returns `nil` when the storage class does not fit.
    init?(databaseValue: DatabaseValue)
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }
    /// Wraps any database value.
    public init?(databaseValue: DatabaseValue) { self = databaseValue }
}

extension Int64: DatabaseValueConvertible {
    /// `.integer(self)`.
    public var databaseValue: DatabaseValue { .integer(self) }
    /// Reads an integer column.
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Int: DatabaseValueConvertible {
    /// `.integer(self)`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    /// Reads an integer column that fits in `Int`.
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue, let exact = Int(exactly: value) else { return nil }
        self = exact
    }
}

extension Int32: DatabaseValueConvertible {
    /// `.integer(self)`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    /// Reads an integer column that fits in `Int32`.
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue, let exact = Int32(exactly: value) else { return nil }
        self = exact
    }
}

extension Double: DatabaseValueConvertible {
    /// `.real(self)`.
    public var databaseValue: DatabaseValue { .real(self) }
    /// Reads a real or integer column.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    /// `.integer(1)` or `.integer(0)`.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    /// Reads an integer column: zero is `false`, anything else `true`.
    public init?(databaseValue: DatabaseValue) {
        guard case .integer(let value) = databaseValue else { return nil }
        self = value != 0
    }
}

extension String: DatabaseValueConvertible {
    /// `.text(self)`.
    public var databaseValue: DatabaseValue { .text(self) }
    /// Reads a text column.
    public init?(databaseValue: DatabaseValue) {
        guard case .text(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Data: DatabaseValueConvertible {
    /// `.blob(self)`.
    public var databaseValue: DatabaseValue { .blob(self) }
    /// Reads a blob column.
    public init?(databaseValue: DatabaseValue) {
        guard case .blob(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// `.null` for `nil`, the wrapped value's database value otherwise.
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: .null
        case .some(let value): value.databaseValue
        }
    }

    /// Reads NULL as `nil`; any other value must convert to `Wrapped`.
    public init?(databaseValue: DatabaseValue) {
        if databaseValue.isNull {
            self = .none
        } else if let value = Wrapped(databaseValue: databaseValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
