#if PostgreSQL
public import Foundation

/// A Swift value sent to PostgreSQL as a bound parameter in its text form, and read back from a
/// column's text.
///
/// Values only ever travel as parameters (`$1`, `$2`, …), never inside the SQL text.
public protocol PostgreSQLValue {
    /// The value's text form, as PostgreSQL's input function for the column's type reads it.
    var postgreSQLText: String { get }
    /// Reads a value from a column's text form; `nil` when the text is not one.
    init?(postgreSQLText text: String)
}

extension String: PostgreSQLValue {
    /// The string itself.
    public var postgreSQLText: String { self }
    /// The text itself.
    public init?(postgreSQLText text: String) { self = text }
}

extension Int: PostgreSQLValue {
    /// The decimal digits.
    public var postgreSQLText: String { String(self) }
    /// The integer the decimal text names.
    public init?(postgreSQLText text: String) { self.init(text) }
}

extension Int64: PostgreSQLValue {
    /// The decimal digits.
    public var postgreSQLText: String { String(self) }
    /// The integer the decimal text names.
    public init?(postgreSQLText text: String) { self.init(text) }
}

extension Bool: PostgreSQLValue {
    /// `t` or `f`.
    public var postgreSQLText: String { self ? "t" : "f" }
    /// `t` or `f`, as PostgreSQL prints a boolean.
    public init?(postgreSQLText text: String) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension UUID: PostgreSQLValue {
    /// The lowercase hyphenated form PostgreSQL's `uuid` prints.
    public var postgreSQLText: String { uuidString.lowercased() }
    /// The UUID the text names.
    public init?(postgreSQLText text: String) { self.init(uuidString: text) }
}

extension Data: PostgreSQLValue {
    /// The `bytea` hex form: `\x` then two hex digits per byte.
    public var postgreSQLText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Bytes from the `bytea` hex form.
    public init?(postgreSQLText text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }
}
#endif
