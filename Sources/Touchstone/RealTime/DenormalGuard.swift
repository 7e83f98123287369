/// Keeps recursive filter state out of the denormal range without relying on the
/// thread's flush-to-zero mode.
///
/// Values below 1e-20 in magnitude (−400 dBFS) become exactly 0, so a decaying
/// one-pole or feedback loop settles on 0 instead of creeping through denormals
/// (10–100× slower on most CPUs) or sticking on a tiny constant. One compare and
/// a select; NaN passes through unchanged (the comparison is false).
@usableFromInline
enum DenormalGuard {
    /// `x`, or 0 when |x| < 1e-20.
    @inlinable @inline(__always)
    static func flush(_ x: Float) -> Float {
        abs(x) < 1e-20 ? 0 : x
    }

    /// `flush` on every lane: 0 where |x| < 1e-20, else x (NaN kept).
    @inlinable @inline(__always)
    static func flush(_ x: SIMD4<Float>) -> SIMD4<Float> {
        x.replacing(with: 0, where: (x .< 1e-20) .& (x .> -1e-20))
    }
}
