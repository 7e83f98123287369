import Foundation

/// Gating blocks of one kind (400 ms momentary or 3 s short-term) collected in 0.01 LU bins from
/// −70 to +30 LUFS, each bin holding its block count and the sum of the blocks' mean squares.
///
/// Memory is fixed (10 000 bins) whatever the programme's length, and the gates need no second pass:
/// a relative gate falls inside one bin, so gated sums are exact except for the blocks sharing that
/// bin (within 0.01 LU of the gate), and percentiles are exact to the bin width.
public struct LoudnessHistogram: Sendable {
    /// Lowest loudness collected (the absolute gate of BS.1770-4), LUFS.
    public static let absoluteGate = -70.0
    /// Bin width in LU.
    public static let binWidth = 0.01
    /// Bins from −70 to +30 LUFS (louder blocks land in the top bin with their exact energy).
    public static let binCount = 10_000

    private var counts: [Int]
    private var energies: [Double]
    /// Blocks collected (above the absolute gate).
    public private(set) var blockCount = 0
    private var energySum = 0.0

    public init() {
        counts = [Int](repeating: 0, count: Self.binCount)
        energies = [Double](repeating: 0, count: Self.binCount)
    }

    /// Loudness of a mean square z (already channel-weighted): −0.691 + 10·log10(z), LUFS.
    @inline(__always)
    public static func loudness(meanSquare z: Double) -> Double { -0.691 + 10 * log10(z) }

    /// Adds one block with channel-weighted mean square `z` if it is above the absolute gate.
    public mutating func add(meanSquare z: Double) {
        let value = Self.loudness(meanSquare: z)
        guard value > Self.absoluteGate, value.isFinite else { return }
        let bin = min(Self.binCount - 1, Int((value - Self.absoluteGate) / Self.binWidth))
        counts[bin] += 1
        energies[bin] += z
        blockCount += 1
        energySum += z
    }

    /// The first bin at or above `loudness`.
    private func bin(atOrAbove loudness: Double) -> Int {
        min(Self.binCount, max(0, Int(((loudness - Self.absoluteGate) / Self.binWidth).rounded(.down))))
    }

    /// The relative gate: the loudness of the mean of all blocks above the absolute gate, plus `offset` LU.
    public func relativeGate(offset: Double) -> Double? {
        blockCount == 0 ? nil : Self.loudness(meanSquare: energySum / Double(blockCount)) + offset
    }

    /// Integrated loudness (BS.1770-4): blocks above the absolute gate and above the relative gate
    /// at −10 LU, their mean square as loudness; nil when no block passes (silence).
    public var integratedLoudness: Double? {
        guard let gate = relativeGate(offset: -10) else { return nil }
        var count = 0, energy = 0.0
        for k in bin(atOrAbove: gate)..<Self.binCount {
            count += counts[k]
            energy += energies[k]
        }
        return count == 0 ? nil : Self.loudness(meanSquare: energy / Double(count))
    }

    /// Loudness range (EBU Tech 3342) of short-term blocks: after the absolute gate and a relative gate
    /// at −20 LU, the 95th minus the 10th percentile of the remaining loudness values, in LU; nil when
    /// no block passes.
    public var loudnessRange: Double? {
        guard let gate = relativeGate(offset: -20) else { return nil }
        let first = bin(atOrAbove: gate)
        var total = 0
        for k in first..<Self.binCount { total += counts[k] }
        guard total > 0 else { return nil }
        func percentile(_ p: Double) -> Double {
            // Nearest rank: the smallest value with at least p·total values at or below it.
            let rank = max(1, Int((p * Double(total)).rounded(.up)))
            var seen = 0
            for k in first..<Self.binCount {
                seen += counts[k]
                if seen >= rank { return Self.absoluteGate + (Double(k) + 0.5) * Self.binWidth }
            }
            return Self.absoluteGate + Double(Self.binCount) * Self.binWidth
        }
        return percentile(0.95) - percentile(0.10)
    }

    /// Empties the histogram (no allocation).
    public mutating func reset() {
        for k in 0..<Self.binCount { counts[k] = 0; energies[k] = 0 }
        blockCount = 0
        energySum = 0
    }
}
