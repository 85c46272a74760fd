package import Foundation

/// Writes a command's JSON: what `JSONEncoder` (default strategies) writes, for `JSONDecoder` to
/// read back.
///
/// The stored format is JSON, so commands that decode their own bytes with `JSONDecoder` (see
/// ``PersistentCommand/decode(_:version:)``) and files written before keep working. A value that
/// fills its containers in order (every synthesized `Codable` conformance does) is written as it
/// encodes, by ``PayloadStream``; anything else (a container reopened or written out of order,
/// `superEncoder`) makes the stream give up, and Foundation's `JSONEncoder` writes it instead, as
/// GRDB falls back for what its fast paths do not handle. Both follow `JSONEncoder`'s defaults
/// where they differ from a value's own `Encodable` conformance: `Data` is a Base64 string, `URL`
/// its absolute string, `Decimal` a number, and a non-finite `Double` or `Float` is an error.
/// Bytes may differ between the two paths (`JSONEncoder` escapes `/`); decoded values do not.
///
/// ## Performance notes
///
/// `JSONEncoder` cost a sixth of a durable push (a command of two fields), most of it generic
/// boxing in its intermediate representation; the stream writes the bytes directly into one
/// reused buffer. The figures, and the measurement that showed the fallback never runs in the
/// benchmarks' workloads, are in BENCHMARKS.md ("Durable history", "The payload codec").
package struct PayloadEncoder {
    /// Kept from one call to the next, so its buffers are allocated once.
    private let reusableStream = PayloadStream()

    /// Returns the JSON of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or what `value` throws.
    package init() {}

    package func encode<T: Encodable>(_ value: T) throws -> Data {
        // A value that encodes with this same encoder inside its own encoding gets a stream of its own.
        let stream = reusableStream.isInUse ? PayloadStream() : reusableStream
        stream.begin()
        defer { stream.end() }
        do {
            try stream.write(value, codingPath: [])
        } catch is PayloadStream.Fallback {
        } catch {
            // A misuse the value rethrew, or its own error: `misuse` wins, as it was first.
            throw stream.misuse ?? error
        }
        if let misuse = stream.misuse { throw misuse }
        if !stream.failed { return Data(stream.bytes) }
        return try JSONEncoder().encode(value)
    }

    /// The error `JSONEncoder` throws for a value it cannot spell in JSON (a non-finite number).
    static func nonFinite(_ value: Any, _ codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON.")
        )
    }

    /// Appends a JSON string literal (escaping what JSON requires).
    static func writeString(_ value: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { utf8 in
            // Most strings need no escape: copy them whole.
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A coding key for paths and `super`.
struct PayloadKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
