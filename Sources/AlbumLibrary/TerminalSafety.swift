public import Foundation

/// The characters that must never reach a terminal or a JSON reader raw: what they would do is not
/// what they look like.
///
/// C0 controls (ESC starts escape sequences, CR rewrites a line), DEL, C1 controls (0x9B is CSI on
/// many terminals), the bidirectional overrides, embeddings and isolates (U+202A–U+202E,
/// U+2066–U+2069: "Trojan Source" reordering), the bidi marks and the line and paragraph
/// separators. `DisplayText` shows them as visible stand-ins; ``escapingUnsafeScalars(in:)``
/// writes them as `\u` escapes in JSON.
public enum TerminalSafety: Sendable {
    /// Whether `scalar` is one of the characters above.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// JSON text with every unsafe character outside the C0 range written as a `\uXXXX` escape.
    ///
    /// `JSONEncoder` escapes C0 controls but writes DEL, C1 and the bidi controls raw. These
    /// characters can only occur inside JSON strings (never in the syntax around them), so an
    /// escape always means the same string to a reader.
    ///
    /// - Parameter data: UTF-8 JSON text.
    /// - Returns: The same JSON value, with those characters escaped; `data` itself when it has none.
    /// - Complexity: O(*n*).
    public static func escapingUnsafeScalars(in data: Data) -> Data {
        // Every such character's UTF-8 form starts with one of these bytes.
        guard data.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return data }
        var result = Data(capacity: data.count + 64)
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x20, isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16)
                result.append(contentsOf: Array("\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".utf8))
            } else {
                result.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        return result
    }
}
