import Foundation
import Horatio

/// The tests' seeded generator: Horatio's SplitMix64, so every random sweep and property test in the
/// package is reproducible from its seed.
public typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// Uniform in [0, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in `range`.
    public mutating func float(_ range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &self) }

    /// Uniform in `range`.
    public mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
