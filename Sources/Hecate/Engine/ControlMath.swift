/// log2, exp2 and the fades' S-curve in plain arithmetic for control-rate work inside `render`: the C library's calls
/// are opaque to the optimiser and to `@_noAllocation`'s checker. Relative error below 1e-6,
/// plenty for a cutoff frequency.
enum ControlMath {
    /// log₂(x) for finite x > 0 (smaller or non-finite x give a large negative or the input's NaN).
    @inline(__always)
    static func log2(_ x: Float) -> Float {
        guard x > 0, x.isFinite else { return x > 0 ? 128 : -149 }
        let e = Float(x.exponent)
        let m = x.significand          // 1…2
        // ln(m) = 2·atanh((m−1)/(m+1)), with y ≤ 1/3 the series converges fast.
        let y = (m - 1) / (m + 1)
        let y2 = y * y
        let series = y * (1 + y2 * (1 / 3 + y2 * (1 / 5 + y2 * (1 / 7 + y2 * (1 / 9 + y2 * (1 / 11 + y2 / 13))))))
        return e + 2 * series * 1.4426950408889634
    }

    /// 2^x, clamped to the normal Float range.
    @inline(__always)
    static func exp2(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 127)
        let n = clamped.rounded(.down)
        let r = (clamped - n) * 0.6931471805599453   // ln 2 · fraction, 0…0.693
        // e^r by its Taylor series to r⁸/8!: error below 1e-7 on 0…ln 2.
        let p = 1 + r * (1 + r * (1 / 2 + r * (1 / 6 + r * (1 / 24 + r * (1 / 120 + r * (1 / 720 + r * (1 / 5040 + r / 40320)))))))
        return p * Float(sign: .plus, exponent: Int(n), significand: 1)
    }

    /// 3x² − 2x³ for x in 0…1: an S-curve with zero slope at both ends, so a fade along it never clicks.
    @inline(__always)
    static func smoothstep(_ x: Double) -> Double { x * x * (3 - 2 * x) }
}
