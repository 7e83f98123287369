/// Niemitalo's 4-point, 3rd-order Hermite interpolator (x-form), from
/// "Polynomial Interpolators for High-Quality Resampling of Oversampled Audio".
///
/// Interpolates between y₀ and y₁ at fraction t ∈ [0, 1), using the neighbours
/// y₋₁ and y₂ to match slopes (central differences), so the curve is C1
/// continuous across segments — a modulated read position never produces slope
/// jumps. Its magnitude response is ≤ 1 at every frequency and fraction (safe
/// inside feedback loops); at fs/48 the error against ideal band-limited
/// interpolation is below −70 dB.
public enum HermiteInterpolation {
    /// The interpolated value at fraction `t` (0…1) between `y0` and `y1`.
    @inlinable @inline(__always)
    public static func interpolate(_ yMinus1: Float, _ y0: Float, _ y1: Float, _ y2: Float, at t: Float) -> Float {
        let c1 = 0.5 * (y1 - yMinus1)
        let c2 = yMinus1 - 2.5 * y0 + 2 * y1 - 0.5 * y2
        let c3 = 0.5 * (y2 - yMinus1) + 1.5 * (y0 - y1)
        return ((c3 * t + c2) * t + c1) * t + y0
    }

    /// `interpolate` in four lanes (four frames), with the same operations, so the same results.
    @inlinable @inline(__always)
    public static func interpolate(
        _ yMinus1: SIMD4<Float>, _ y0: SIMD4<Float>, _ y1: SIMD4<Float>, _ y2: SIMD4<Float>, at t: Float
    ) -> SIMD4<Float> {
        let c1 = 0.5 * (y1 - yMinus1)
        let c2 = yMinus1 - 2.5 * y0 + 2 * y1 - 0.5 * y2
        let c3 = 0.5 * (y2 - yMinus1) + 1.5 * (y0 - y1)
        return ((c3 * t + c2) * t + c1) * t + y0
    }
}
