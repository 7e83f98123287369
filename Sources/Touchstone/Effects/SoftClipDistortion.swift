import Foundation

/// Soft-clip drive: pre-gain into a cubic soft clipper, with dry/wet mix.
///
///     u = g·x,  g = 10^(gain/20)
///     clip(u) = 1.5·u − 0.5·u³  for |u| ≤ 1,  sign(u) beyond
///     out = x + mix·(clip(u) − x)
///
/// The cubic is the classic smooth clipper: slope 1.5 at 0, slope 0 and value ±1
/// at |u| = 1, so the wet signal never exceeds ±1 and the curve has no corner.
/// Mirrors HiSynth's "Drive" (AUDistortion soft-clip gain −40…+20 dB, mix 0…100 %
/// → `mix` 0…1). Gain and mix are smoothed per sample (one-pole, `smoothingTime`).
/// Stateless with respect to the signal: a NaN input affects only its own sample.
/// Mono; one instance per channel.
public struct SoftClipDistortion: MonoProcessor {
    /// Pre-gain range, in dB.
    public static let gainRange: ClosedRange<Float> = -40...20

    @usableFromInline var sampleRate: Float = 48_000
    @usableFromInline var smoothingCoefficient: Float = 1
    @usableFromInline var linearGainTarget: Float = 1
    @usableFromInline var linearGain: Float = 1
    @usableFromInline var mixTarget: Float = 1
    @usableFromInline var mixValue: Float = 1

    /// Time constant of parameter smoothing, in seconds (0…1; 0 = immediate).
    public var smoothingTime: Float = 0.01 {
        didSet {
            smoothingTime = min(max(smoothingTime, 0), 1)
            updateSmoothing()
        }
    }

    /// Creates a soft clipper with pre-gain `gain` dB (−40…20) and `mix` (0…1).
    public init(gain: Float = 10, mix: Float = 0.5) {
        self.gain = gain
        self.mix = mix
        reset()
    }

    /// Pre-gain in dB, −40…+20 (clamped). Smoothed.
    public var gain: Float {
        get { 20 * log10(linearGainTarget) }
        set {
            let decibels = newValue.clamped(to: Self.gainRange, nonFinite: 0)
            linearGainTarget = pow(10, decibels / 20)
        }
    }

    /// Dry/wet, 0 (dry) … 1 (wet) (clamped). Smoothed.
    public var mix: Float {
        get { mixTarget }
        set { mixTarget = newValue.clamped(to: 0...1, nonFinite: 1) }
    }

    /// The clipping curve alone, `1.5u − 0.5u³` on |u| ≤ 1 and ±1 beyond.
    @inlinable @inline(__always)
    public static func clip(_ u: Float) -> Float {
        let limited = min(max(u, -1), 1)
        return limited * (1.5 - 0.5 * limited * limited)
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        updateSmoothing()
        reset()
    }

    /// Jumps the smoothed gain and mix to their targets.
    public mutating func reset() {
        linearGain = linearGainTarget
        mixValue = mixTarget
    }

    /// Processes one sample (linear amplitude).
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        linearGain += smoothingCoefficient * (linearGainTarget - linearGain)
        mixValue += smoothingCoefficient * (mixTarget - mixValue)
        let wet = Self.clip(linearGain * input)
        return input + mixValue * (wet - input)
    }

    /// Processes a block in place (at most the prepared maximum block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices {
            buffer[i] = processSample(buffer[i])
        }
    }

    mutating func updateSmoothing() {
        smoothingCoefficient = smoothingTime > 0 ? 1 - exp(-1 / (smoothingTime * sampleRate)) : 1
    }
}
