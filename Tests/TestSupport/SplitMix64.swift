/// A small, fast, seeded pseudo-random generator, so randomized tests repeat exactly: each prints
/// its seed (and the step) on failure.
///
/// Shared by the test targets. (The Testing article's compiled example keeps its own copy: the
/// article shows it.)
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state: the next output follows from it alone.
    public private(set) var state: UInt64

    /// Creates a generator that produces the same sequence for the same seed.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
