/// SplitMix64 (Steele, Lea and Flood, 2014): the package's one seeded random source. The same seed
/// gives the same sequence on every platform, so a game session, a fuzz run or a test sweep replays
/// exactly from its seed. Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; each `next()` advances it by the golden-ratio increment.
    public var state: UInt64

    /// Starts at `seed` (any value, 0 included).
    public init(seed: UInt64) { state = seed }

    /// The next 64 uniformly distributed bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
