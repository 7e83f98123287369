import Foundation

/// A one-pole low-pass "tone" control: a gentle 6 dB/octave treble cut.
///
///     y[n] = y[n−1] + a·(x[n] − y[n−1]),   a = 1 − e^(−2π·fc/fs)
///
/// `fc` is the −3 dB point for fc ≪ fs (the exact matched-pole design). The
/// coefficient is smoothed per sample with a one-pole of `smoothingTime`, so
/// turning the knob or modulating it from a hand or face never zippers.
///
/// Set the cutoff directly in Hz (`cutoff`, 20…20 000 Hz, clamped below 0.49·fs)
/// or through the musical knob `tone` (0…1 ↦ 200 Hz…20 kHz exponentially, so equal
/// knob travel is an equal pitch interval; 1 is fully open).
///
/// Mono; use one instance per channel. Output never denormal (state is flushed).
/// A NaN input poisons the state until `reset()`.
public struct ToneFilter: MonoProcessor {
    /// Lowest cutoff, in Hz.
    public static let minimumCutoff: Float = 20
    /// Highest cutoff, in Hz (further limited to 0.49 × the sample rate).
    public static let maximumCutoff: Float = 20_000
    /// `tone` = 0 maps here, in Hz.
    public static let toneKnobLowCutoff: Float = 200

    @usableFromInline var sampleRate: Float = 48_000
    @usableFromInline var cutoffTarget: Float
    @usableFromInline var coefficient: Float = 1
    @usableFromInline var coefficientTarget: Float = 1
    @usableFromInline var smoothingCoefficient: Float = 1
    @usableFromInline var state: Float = 0

    /// Time constant of the per-sample coefficient smoothing, in seconds (0…1; 0 = immediate).
    public var smoothingTime: Float = 0.02 {
        didSet {
            smoothingTime = min(max(smoothingTime, 0), 1)
            updateSmoothing()
        }
    }

    /// Creates a tone filter at `cutoff` Hz (20…20 000).
    public init(cutoff: Float = 20_000) {
        cutoffTarget = min(max(cutoff, Self.minimumCutoff), Self.maximumCutoff)
        updateCoefficientTarget()
        coefficient = coefficientTarget
    }

    /// Target cutoff in Hz, 20…20 000 (values outside are clamped). Smoothed.
    public var cutoff: Float {
        get { cutoffTarget }
        set {
            cutoffTarget = newValue.clamped(to: Self.minimumCutoff...Self.maximumCutoff, nonFinite: Self.maximumCutoff)
            updateCoefficientTarget()
        }
    }

    /// The cutoff as a 0…1 knob: `200 Hz · 100^tone` (0 → 200 Hz, 0.5 → 2 kHz, 1 → 20 kHz).
    public var tone: Float {
        get { log(cutoffTarget / Self.toneKnobLowCutoff) / log(100) }
        set {
            let knob = newValue.clamped(to: 0...1, nonFinite: 1)
            cutoff = Self.toneKnobLowCutoff * pow(100, knob)
        }
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        updateCoefficientTarget()
        updateSmoothing()
        reset()
    }

    /// Clears the filter state and jumps the coefficient to its target.
    public mutating func reset() {
        state = 0
        coefficient = coefficientTarget
    }

    /// Filters one sample (linear amplitude).
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        coefficient += smoothingCoefficient * (coefficientTarget - coefficient)
        state = DenormalGuard.flush(state + coefficient * (input - state))
        return state
    }

    /// Filters a block in place (at most the prepared maximum block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices {
            buffer[i] = processSample(buffer[i])
        }
    }

    @usableFromInline mutating func updateCoefficientTarget() {
        let limited = min(cutoffTarget, 0.49 * sampleRate)
        coefficientTarget = 1 - exp(-2 * Float.pi * limited / sampleRate)
    }

    mutating func updateSmoothing() {
        smoothingCoefficient = smoothingTime > 0 ? 1 - exp(-1 / (smoothingTime * sampleRate)) : 1
    }
}
