import Foundation

/// A parameter smoothed per sample, so values from hands, faces or knobs (arriving at 30–60 Hz
/// or in jumps) never zipper or click.
///
/// Call `setTarget(_:)` from the control side of the audio thread (for example after draining the
/// command ring, once per block), then `next()` once per sample. While settled, `isSmoothing` is
/// false and `next()` returns the constant value, so kernels can take a fast path and compute
/// derived coefficients once per block.
///
///     var cutoff = SmoothedParameter(initialValue: 1_000, style: .multiplicative, rampTime: 0.03)
///     cutoff.prepare(sampleRate: 48_000)
///     cutoff.setTarget(4_000)                // a 2-octave glide over 30 ms, even in pitch
///     let hz = cutoff.next()
///
/// - Complexity: `next()` is O(1) with no allocation; `setTarget` may call `pow` (control rate only).
@frozen
public struct SmoothedParameter: Sendable, Hashable {
    /// Smallest value a `.multiplicative` parameter takes (ratios need a positive value).
    public static let minimumMultiplicativeValue: Float = 1e-6

    /// How the value moves.
    public private(set) var style: SmoothingStyle
    /// Ramp time in seconds (≥ 0): the full ramp for `.linear`/`.multiplicative`, the time constant for `.exponential`.
    public private(set) var rampTime: Double
    /// Sample rate in Hz the ramp lengths are computed for.
    public private(set) var sampleRate: Double
    /// The current (smoothed) value.
    @inlinable public var current: Float { _current }
    @usableFromInline var _current: Float
    /// The value being approached.
    @inlinable public var target: Float { _target }
    @usableFromInline var _target: Float

    // Per-sample increment (.linear), ratio (.multiplicative) or one-pole coefficient (.exponential).
    @usableFromInline var step: Float = 0
    // Samples left (.linear, .multiplicative); 1 while moving (.exponential); 0 when settled.
    @usableFromInline var remaining: Int = 0

    /// - Parameters:
    ///   - initialValue: the starting value (and target).
    ///   - style: how the value moves (default `.linear`).
    ///   - rampTime: seconds, ≥ 0 (default 0.02 = 20 ms; 0 = jump).
    ///   - sampleRate: Hz, > 0; normally set again by `prepare(sampleRate:)`.
    public init(initialValue: Float, style: SmoothingStyle = .linear, rampTime: Double = 0.02, sampleRate: Double = 48_000) {
        self.style = style
        self.rampTime = max(0, rampTime.isFinite ? rampTime : 0)
        self.sampleRate = sampleRate > 0 ? sampleRate : 48_000
        let start = style == .multiplicative ? max(initialValue, Self.minimumMultiplicativeValue) : initialValue
        self._current = start
        self._target = start
        if style == .exponential { step = OnePoleSmoother.coefficient(timeConstant: self.rampTime, sampleRate: self.sampleRate) }
    }

    /// Sets the sample rate (Hz, > 0) and snaps to the target. Call from the kernel's `prepare`.
    public mutating func prepare(sampleRate: Double) {
        self.sampleRate = sampleRate > 0 ? sampleRate : 48_000
        snap(to: target)
        if style == .exponential { step = OnePoleSmoother.coefficient(timeConstant: rampTime, sampleRate: self.sampleRate) }
    }

    /// Changes the ramp time (seconds, ≥ 0) used by the next `setTarget`; a ramp in progress keeps its speed
    /// except for `.exponential`, which changes immediately.
    public mutating func setRampTime(_ seconds: Double) {
        rampTime = max(0, seconds.isFinite ? seconds : 0)
        if style == .exponential { step = OnePoleSmoother.coefficient(timeConstant: rampTime, sampleRate: sampleRate) }
    }

    /// Whether the value is still moving. When false, `next()` returns `current` unchanged.
    @inlinable
    public var isSmoothing: Bool { remaining > 0 }

    /// Starts moving from the current value towards `newTarget` (units of the parameter).
    /// Non-finite targets are ignored. Continuous: retargeting mid-ramp never jumps.
    public mutating func setTarget(_ newTarget: Float) {
        guard newTarget.isFinite else { return }
        let clamped = style == .multiplicative ? max(newTarget, Self.minimumMultiplicativeValue) : newTarget
        guard clamped != target || current != clamped else { return }
        _target = clamped
        let samples = Int((rampTime * sampleRate).rounded())
        if samples <= 0 || clamped == current {
            snap(to: clamped)
            return
        }
        switch style {
        case .linear:
            step = (clamped - current) / Float(samples)
            remaining = samples
        case .multiplicative:
            step = Float(pow(Double(clamped) / Double(current), 1 / Double(samples)))
            remaining = samples
        case .exponential:
            remaining = 1
        }
    }

    /// Advances one sample and returns the smoothed value.
    @inlinable @inline(__always)
    public mutating func next() -> Float {
        guard remaining > 0 else { return current }
        switch style {
        case .linear:
            remaining &-= 1
            _current = remaining == 0 ? target : current + step
        case .multiplicative:
            remaining &-= 1
            _current = remaining == 0 ? target : current * step
        case .exponential:
            let distance = target - current
            let next = current + step * distance
            // Snap when close enough, or when the step no longer changes the Float (it would stick short).
            if abs(distance) <= 1e-6 * max(1, abs(target)) || next == current {
                _current = target
                remaining = 0
            } else {
                _current = next
            }
        }
        return current
    }

    /// Advances `count` samples (≥ 0) at once, e.g. for a block a voice skips, and returns the value reached.
    @inlinable
    public mutating func skip(_ count: Int) -> Float {
        guard remaining > 0, count > 0 else { return current }
        switch style {
        case .linear, .multiplicative:
            if count >= remaining {
                remaining = 0
                _current = target
            } else {
                remaining &-= count
                _current = style == .linear ? current + step * Float(count) : Float(Double(current) * pow(Double(step), Double(count)))
            }
        case .exponential:
            let decay = pow(Double(1 - step), Double(count))
            _current = target - (target - current) * Float(decay)
            if abs(target - current) <= 1e-6 * max(1, abs(target)) {
                _current = target
                remaining = 0
            }
        }
        return current
    }

    /// Jumps to `value` immediately (value and target) and stops smoothing.
    @inlinable
    public mutating func snap(to value: Float) {
        let v = style == .multiplicative ? max(value, Self.minimumMultiplicativeValue) : value
        _current = v
        _target = v
        remaining = 0
    }
}
