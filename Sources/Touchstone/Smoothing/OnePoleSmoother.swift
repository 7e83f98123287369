import Foundation

/// One step of a one-pole (exponential) smoother: `y += c · (target − y)`.
///
/// The same recurrence Hecate's engine calls `rtOnePole`. Allocation-free and branch-free,
/// so it can run per sample for every smoothed value.
///
/// - Parameters:
///   - current: the smoother's state `y` (any finite value).
///   - target: the value being approached.
///   - coefficient: `c` in 0…1, from `OnePoleSmoother.coefficient(timeConstant:sampleRate:)`;
///     0 freezes, 1 jumps to the target.
/// - Returns: the new state.
@inlinable @inline(__always)
public func rtOnePole(_ current: Float, target: Float, coefficient: Float) -> Float {
    current + coefficient * (target - current)
}

/// A one-pole exponential smoother, `y += c · (target − y)`, for smoothing control values per sample.
///
/// After one time constant the output has covered 63.2 % of a step, after 4.6 time constants 99 %.
/// Once the remaining distance is below `settleThreshold · max(1, |target|)` the value snaps to the
/// target, so the state never drifts into subnormal numbers, never sticks one rounding step short of a
/// large target (a cutoff in Hz), and `isSmoothing` becomes false (a fast path for callers).
///
///     var gain = OnePoleSmoother(timeConstant: 0.01, sampleRate: 48_000, initialValue: 0)
///     gain.target = 1
///     let g = gain.next()
///
/// - Complexity: O(1) per sample, no allocation.
@frozen
public struct OnePoleSmoother: Sendable, Hashable {
    /// The current output.
    public var value: Float
    /// The value being approached.
    public var target: Float
    /// The per-sample coefficient `c`, 0…1 (1 = no smoothing).
    public var coefficient: Float
    /// Relative distance to the target below which the smoother snaps to it (scaled by `max(1, |target|)`).
    public var settleThreshold: Float

    /// - Parameters:
    ///   - timeConstant: seconds to cover 63.2 % of a step, ≥ 0 (0 = no smoothing).
    ///   - sampleRate: Hz, > 0.
    ///   - initialValue: the starting value and target.
    ///   - settleThreshold: relative snap distance, > 0 (default 1e-6: −120 dB of full scale, or 1e-6 of a large target).
    public init(timeConstant: Double, sampleRate: Double, initialValue: Float = 0, settleThreshold: Float = 1e-6) {
        self.value = initialValue
        self.target = initialValue
        self.coefficient = Self.coefficient(timeConstant: timeConstant, sampleRate: sampleRate)
        self.settleThreshold = settleThreshold
    }

    /// The one-pole coefficient `c = 1 − exp(−1 / (τ · fs))` for a time constant τ.
    ///
    /// - Parameters:
    ///   - timeConstant: τ in seconds, ≥ 0. τ ≤ 0 (or not finite) gives 1 (jump immediately).
    ///   - sampleRate: Hz, > 0.
    /// - Returns: `c` in (0, 1].
    @inlinable
    public static func coefficient(timeConstant: Double, sampleRate: Double) -> Float {
        guard timeConstant > 0, timeConstant.isFinite, sampleRate > 0 else { return 1 }
        return Float(1 - exp(-1 / (timeConstant * sampleRate)))
    }

    /// Changes the time constant (seconds, ≥ 0) without moving the current value. Control rate: calls `exp`.
    public mutating func setTimeConstant(_ seconds: Double, sampleRate: Double) {
        coefficient = Self.coefficient(timeConstant: seconds, sampleRate: sampleRate)
    }

    /// Whether the value is still moving towards the target.
    @inlinable
    public var isSmoothing: Bool { value != target }

    /// Advances one sample and returns the new value.
    @inlinable @inline(__always)
    public mutating func next() -> Float {
        let distance = target - value
        let next = value + coefficient * distance
        // Snap when close enough, or when the step no longer changes the Float (it would stick short).
        value = abs(distance) <= settleThreshold * max(1, abs(target)) || next == value ? target : next
        return value
    }

    /// Jumps to `newValue` immediately (target and value), e.g. on note start.
    @inlinable
    public mutating func snap(to newValue: Float) {
        value = newValue
        target = newValue
    }
}
