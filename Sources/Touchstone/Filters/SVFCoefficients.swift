/// Coefficients of the trapezoidal (zero-delay-feedback) state-variable filter (Simper, "Linear
/// Trapezoidal Integrated SVF"; equal to Zavalishin's TPT SVF).
///
/// g = tan(π·fc/fs) (the bilinear prewarp, so the digital response at fc equals the analog
/// prototype's), k = 1/Q, a1 = 1 / (1 + g·(g + k)), a2 = g·a1, a3 = g·a2. Computing them costs a polynomial tan and a
/// division (about as much as one filter sample), so filters compute them once per block while
/// settled and per sample only while cutoff or Q move.
@frozen
public struct SVFCoefficients: Sendable, Hashable {
    /// Prewarped integrator gain tan(π·fc/fs), > 0.
    public var g: Float
    /// Damping 1/Q, > 0.
    public var k: Float
    /// 1 / (1 + g·(g + k)).
    public var a1: Float
    /// g·a1.
    public var a2: Float
    /// g·a2.
    public var a3: Float

    /// Lowest cutoff in Hz the filters accept.
    public static let minimumCutoff: Float = 1
    /// Highest cutoff as a fraction of the sample rate (0.49·fs).
    public static let maximumNormalizedCutoff: Float = 0.49
    /// Accepted Q range (0.1 = heavily damped … 50 = ringing).
    public static let qRange: ClosedRange<Float> = 0.1...50

    /// - Parameters:
    ///   - cutoff: Hz, clamped to 1…0.49·fs.
    ///   - q: resonance Q, clamped to 0.1…50 (0.707 = Butterworth for low/high-pass).
    ///   - inverseSampleRate: 1/fs in seconds.
    @inlinable @inline(__always)
    public init(cutoff: Float, q: Float, inverseSampleRate: Float) {
        g = Self.prewarp(cutoff: cutoff, inverseSampleRate: inverseSampleRate)
        k = Self.damping(q: q)
        a1 = 0
        a2 = 0
        a3 = 0
        updateGains()
    }

    /// g = tan(π·fc/fs) for `cutoff` in Hz, clamped to 1…0.49·fs (NaN maps to the bounds).
    @inlinable @inline(__always)
    public static func prewarp(cutoff: Float, inverseSampleRate: Float) -> Float {
        let normalized = min(max(cutoff * inverseSampleRate, minimumCutoff * inverseSampleRate), maximumNormalizedCutoff)
        return FastTrigonometry.tanPi(normalized)
    }

    /// k = 1/Q for `q` clamped to 0.1…50 (NaN maps to the bounds).
    @inlinable @inline(__always)
    public static func damping(q: Float) -> Float {
        1 / min(max(q, qRange.lowerBound), qRange.upperBound)
    }

    /// Recomputes a1, a2, a3 from `g` and `k`.
    @inlinable @inline(__always)
    public mutating func updateGains() {
        a1 = 1 / (1 + g * (g + k))
        a2 = g * a1
        a3 = g * a2
    }
}
