/// Reads a fuzzer's bytes as a stream of small choices; past the end every read yields zero.
///
/// The fuzzer mutates bytes, not structures: reading fields one after another from the front lets
/// each mutation change one decision (a column's type, a length, an operation) and keeps every
/// input meaningful, however short.
public struct FuzzInput: Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    /// Creates a reader of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A little-endian integer of `width` bytes, sign-extended.
    public mutating func integer(width: Int) -> Int64 {
        var value: UInt64 = 0
        for shift in 0..<width { value |= UInt64(byte()) << (8 * UInt64(shift)) }
        let unused = UInt64(64 - 8 * width)
        return Int64(bitPattern: value << unused) >> Int64(unused)
    }

    /// Up to `limit` raw bytes, the count read first.
    public mutating func chunk(limit: Int) -> [UInt8] {
        let count = min(Int(byte()), limit, bytes.count - min(offset, bytes.count))
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}
