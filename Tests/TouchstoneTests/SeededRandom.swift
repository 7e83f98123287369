import Touchstone

/// SplitMix64: a tiny deterministic generator so random sweeps are reproducible.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func float(_ range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &self) }
    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
}

/// Helpers shared by the kernel tests.
enum Render {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    /// Renders `count` samples of a generator in 256-frame blocks.
    static func generate<G: SignalGenerator>(_ g: inout G, count: Int, block: Int = 256) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            while start < count {
                let n = min(block, count - start)
                g.generate(into: UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + n)]))
                start += n
            }
        }
        return out
    }

    /// True when every sample is finite and not subnormal.
    static func isClean(_ samples: [Float]) -> Bool {
        samples.allSatisfy { $0.isFinite && !$0.isSubnormal }
    }
}
