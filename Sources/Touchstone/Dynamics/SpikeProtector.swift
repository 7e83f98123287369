import Foundation

/// A pre-limiter gain duck for extreme transients (a filter blowing up, a bad
/// sample, a stuck voice): when the stereo-linked peak exceeds `threshold`, the
/// gain falls toward threshold/peak with a fast time constant (`attackTime`,
/// ≈0.5 ms) and recovers slowly (`releaseTime`, ≈100 ms), so one spike dips the
/// level briefly instead of making the brickwall limiter pump hard.
///
///     target = min(1, threshold / max(|L|, |R|))
///     g += (target < g ? a_attack : a_release) · (target − g),   a = 1 − e^(−1/(τ·fs))
///
/// It is not a brickwall: part of a spike's first half-millisecond passes; the
/// `BrickwallLimiter` behind it guarantees the ceiling (and uses this as its
/// pre-stage). Signals below `threshold` pass untouched (g = 1).
///
/// - `threshold`: dBFS, −24…+24 (default +6: only truly abnormal peaks).
/// - `attackTime`: seconds, 0.0001…0.01 (default 0.0005).
/// - `releaseTime`: seconds, 0.01…2 (default 0.1).
///
/// Stateless with respect to NaN: a non-finite peak leaves the gain unchanged.
public struct SpikeProtector: StereoProcessor {
    @usableFromInline var sampleRate: Float = 48_000
    @usableFromInline var thresholdLinear: Float = 2
    @usableFromInline var attackCoefficient: Float = 1
    @usableFromInline var releaseCoefficient: Float = 1
    @usableFromInline var gain: Float = 1

    var thresholdSetting: Float = 6
    var attackSetting: Float = 0.0005
    var releaseSetting: Float = 0.1

    /// Creates a spike protector (threshold dBFS −24…24, attack and release in seconds).
    public init(threshold: Float = 6, attackTime: Float = 0.0005, releaseTime: Float = 0.1) {
        self.threshold = threshold
        self.attackTime = attackTime
        self.releaseTime = releaseTime
    }

    /// Peak level above which the duck engages, in dBFS (−24…+24, clamped).
    public var threshold: Float {
        get { thresholdSetting }
        set {
            thresholdSetting = newValue.clamped(to: -24...24, nonFinite: 6)
            thresholdLinear = pow(10, thresholdSetting / 20)
        }
    }

    /// Duck time constant in seconds (0.0001…0.01, clamped).
    public var attackTime: Float {
        get { attackSetting }
        set {
            attackSetting = newValue.clamped(to: 0.0001...0.01, nonFinite: 0.0005)
            updateCoefficients()
        }
    }

    /// Recovery time constant in seconds (0.01…2, clamped).
    public var releaseTime: Float {
        get { releaseSetting }
        set {
            releaseSetting = newValue.clamped(to: 0.01...2, nonFinite: 0.1)
            updateCoefficients()
        }
    }

    /// The current duck gain, 0…1 (1 = no ducking).
    public var currentGain: Float { gain }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        updateCoefficients()
        reset()
    }

    /// Returns to unity gain.
    public mutating func reset() {
        gain = 1
    }

    /// Processes one stereo frame (linear amplitude).
    @inlinable @inline(__always)
    public mutating func processFrame(left: Float, right: Float) -> (left: Float, right: Float) {
        let peak = max(abs(left), abs(right))
        var target: Float = 1
        if peak > thresholdLinear { target = thresholdLinear / peak }  // false for NaN
        let coefficient = target < gain ? attackCoefficient : releaseCoefficient
        gain += coefficient * (target - gain)
        return (left * gain, right * gain)
    }

    /// Processes two channel buffers in place (equal length).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public mutating func process(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        precondition(left.count == right.count, "stereo buffers must have the same length")
        for i in left.indices {
            let out = processFrame(left: left[i], right: right[i])
            left[i] = out.left
            right[i] = out.right
        }
    }

    mutating func updateCoefficients() {
        attackCoefficient = 1 - exp(-1 / (attackSetting * sampleRate))
        releaseCoefficient = 1 - exp(-1 / (releaseSetting * sampleRate))
    }
}
