import Foundation

/// A JSON array of values or of rows (arrays of values), written into one byte buffer: what a
/// bulk statement reads with `json_each` from one bound parameter.
///
/// Written by hand: `JSONSerialization`'s casts of `Any` cost more than the statement, and
/// building each value as a `String` first cost a tenth of a bulk edit.
struct JSONRows {
    private var bytes: [UInt8] = [UInt8(ascii: "[")]
    private var firstElement = true
    private var firstValue = true
    private var inRow = false

    /// Starts a row (an inner array) in the outer array.
    mutating func beginRow() {
        separate()
        bytes.append(UInt8(ascii: "["))
        inRow = true
        firstValue = true
    }

    /// Ends the row begun last.
    mutating func endRow() {
        bytes.append(UInt8(ascii: "]"))
        inRow = false
    }

    /// A row of an album's columns, in the order the bulk statements read them: id, title,
    /// artist, genre, year, cover, and `searchText`.
    mutating func album(_ album: Album, searchText: String?) {
        beginRow()
        string(album.id)
        string(album.title)
        string(album.artist)
        string(album.genre)
        integer(album.year)
        string(album.coverURL?.absoluteString)
        string(searchText)
        endRow()
    }

    /// A string: quotes, backslashes and control characters escaped, everything else as UTF-8.
    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                default:
                    bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An id in `UUID.uuidString`'s form (upper-case hexadecimal, 8-4-4-4-12), as the library
    /// stores ids; written without `uuidString` (a formatted print on Linux).
    mutating func string(_ id: UUID) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string, or `null`.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// A whole number.
    mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A whole number, or `null`.
    mutating func integer(_ value: Int?) {
        if let value { integer(Int64(value)) } else { null() }
    }

    /// `null`.
    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// The array's text.
    var text: String {
        var bytes = bytes
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func separate() {
        if inRow {
            if !firstValue { bytes.append(UInt8(ascii: ",")) }
            firstValue = false
        } else {
            if !firstElement { bytes.append(UInt8(ascii: ",")) }
            firstElement = false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
