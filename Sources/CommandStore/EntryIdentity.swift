#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity columns of an entry row: a random token drawn when the entry was recorded, and
/// when that was. Both are `nil` in rows migrated from format 3, which had neither.
package struct EntryIdentity: Equatable {
    /// The entry's token; with its sequence number it names the entry (``HistoryRecord/ID``).
    package var token: Int64?
    /// Milliseconds since 1970.
    package var recordedAt: Int64?
    /// Who recorded it (``DurableHistory/author``), `nil` when nobody was named.
    package var author: String?

    package init(token: Int64?, recordedAt: Int64?, author: String?) {
        self.token = token
        self.recordedAt = recordedAt
        self.author = author
    }

    /// The current time in milliseconds since 1970 (the realtime clock: a vDSO call, no allocation).
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}

/// Draws entry tokens: SplitMix64 from a seed the system's generator picks once per history, so a
/// push costs a few arithmetic instructions rather than a system call, and two processes (each
/// with its own seed) recording an entry at the same position draw different tokens.
package struct EntryTokenGenerator {
    private var state: UInt64

    package init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    package mutating func next() -> Int64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int64(bitPattern: z ^ (z >> 31))
    }
}
