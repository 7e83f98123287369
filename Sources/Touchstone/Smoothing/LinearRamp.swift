/// A linear ramp from the current value to a target over a fixed number of samples.
///
/// Reaches the target exactly on the last step (the final value is assigned, not accumulated),
/// so repeated ramps never drift. Retargeting mid-ramp starts a new ramp from the current value,
/// which keeps the output continuous.
///
///     var ramp = LinearRamp(value: 0)
///     ramp.ramp(to: 1, overSamples: 480)   // 10 ms at 48 kHz
///     let v = ramp.next()
///
/// - Complexity: O(1) per sample, no allocation.
@frozen
public struct LinearRamp: Sendable, Hashable {
    /// The current output.
    @inlinable public var value: Float { _value }
    @usableFromInline var _value: Float
    /// The value the ramp ends at.
    @inlinable public var target: Float { _target }
    @usableFromInline var _target: Float
    @usableFromInline var increment: Float = 0
    @usableFromInline var remaining: Int = 0

    public init(value: Float = 0) {
        self._value = value
        self._target = value
    }

    /// Whether the ramp is still moving (samples remain).
    @inlinable
    public var isSmoothing: Bool { remaining > 0 }

    /// Samples left until the target is reached (0 when settled).
    @inlinable
    public var remainingSamples: Int { remaining }

    /// Starts a ramp from the current value to `newTarget`.
    ///
    /// - Parameters:
    ///   - newTarget: the end value.
    ///   - samples: ramp length in samples, ≥ 0; 0 jumps immediately.
    @inlinable
    public mutating func ramp(to newTarget: Float, overSamples samples: Int) {
        _target = newTarget
        if samples <= 0 || newTarget == value {
            _value = newTarget
            remaining = 0
            increment = 0
        } else {
            remaining = samples
            increment = (newTarget - value) / Float(samples)
        }
    }

    /// Advances one sample and returns the new value.
    @inlinable @inline(__always)
    public mutating func next() -> Float {
        if remaining > 0 {
            remaining &-= 1
            _value = remaining == 0 ? target : value + increment
        }
        return value
    }

    /// Advances `count` samples at once (≥ 0) and returns the value reached.
    @inlinable
    public mutating func skip(_ count: Int) -> Float {
        guard remaining > 0, count > 0 else { return value }
        if count >= remaining {
            remaining = 0
            _value = target
        } else {
            remaining &-= count
            _value += increment * Float(count)
        }
        return value
    }

    /// Jumps to `newValue` immediately and stops any ramp.
    @inlinable
    public mutating func snap(to newValue: Float) {
        _value = newValue
        _target = newValue
        remaining = 0
        increment = 0
    }
}
