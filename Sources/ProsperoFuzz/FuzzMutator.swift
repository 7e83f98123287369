import Horatio

/// A small deterministic byte mutator for fuzzing without libFuzzer.
///
/// The same seed always gives the same sequence of inputs, so a failure found in
/// CI is reproduced exactly by rerunning the test. Mutations are the classic
/// ones that break binary parsers: bit flips, interesting integers written over
/// length fields, truncation, insertion, duplication of a slice and splicing.
public struct FuzzMutator: Sendable {
    private var random: SplitMix64

    /// Seed 0 is replaced by the golden-ratio increment, as it always was, so every seed keeps its sequence.
    public init(seed: UInt64) { random = SplitMix64(seed: seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed) }

    /// The next pseudo-random number.
    public mutating func next() -> UInt64 { random.next() }

    /// A number in 0..<bound (bound > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    private static let interesting: [UInt32] = [
        0, 1, 2, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF,
        0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF,
    ]

    /// Returns `input` changed by one to four random mutations, spliced with `other` sometimes.
    public mutating func mutate(_ input: [UInt8], splicingWith other: [UInt8] = []) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + below(4)) {
            switch below(8) {
            case 0 where !bytes.isEmpty:
                bytes[below(bytes.count)] ^= UInt8(1 << below(8))
            case 1 where !bytes.isEmpty:
                bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: next())
            case 2 where bytes.count >= 4:
                let at = below(bytes.count - 3)
                let value = Self.interesting[below(Self.interesting.count)]
                let bigEndian = below(2) == 0
                for k in 0..<4 {
                    let shift = bigEndian ? (24 - 8 * k) : (8 * k)
                    bytes[at + k] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
                }
            case 3 where !bytes.isEmpty:
                bytes.removeLast(1 + below(min(bytes.count, 16)))
            case 4:
                let at = below(bytes.count + 1)
                let count = 1 + below(8)
                bytes.insert(contentsOf: (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }, at: at)
            case 5 where bytes.count >= 2:
                let start = below(bytes.count)
                let end = min(bytes.count, start + 1 + below(32))
                bytes.insert(contentsOf: bytes[start..<end], at: below(bytes.count + 1))
            case 6 where !other.isEmpty && !bytes.isEmpty:
                let cut = below(bytes.count)
                let from = below(other.count)
                bytes = Array(bytes[..<cut]) + Array(other[from...])
            case 7 where bytes.count >= 2:
                let at = below(bytes.count - 1)
                bytes.swapAt(at, at + 1 + below(bytes.count - at - 1))
            default:
                bytes.append(UInt8(truncatingIfNeeded: next()))
            }
        }
        return bytes
    }
}
