/// The unnormalised 8-point Walsh–Hadamard transform on SIMD vectors, the
/// lossless mixing matrix of `FeedbackDelayNetworkReverb` (times 1/√8).
public enum WalshHadamard {
    /// yₖ = Σᵢ (−1)^popcount(k AND i) · xᵢ, natural (Sylvester) order.
    @inlinable @inline(__always)
    public static func transform(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let y = transform(low: x.lowHalf, high: x.highHalf)
        return SIMD8(lowHalf: y.low, highHalf: y.high)
    }

    /// The same transform on x₀…x₃ (`low`) and x₄…x₇ (`high`), the halves a
    /// 128-bit vector unit holds in two registers.
    ///
    /// The in-place radix-2 stages (pairs whose indices differ in bit 0, then bit 1, then bit 2), so the
    /// additions are grouped exactly as there (24 additions, bit-identical results). Within a half a stage
    /// is the swapped vector plus the vector times ±1: a + b in one lane of each pair, a + (−b) = a − b in
    /// the other, both exact as the scalar sum and difference are. (Written as constant-geometry butterflies,
    /// even and odd lanes gathered by shuffles, the optimiser split the products feeding the first stage
    /// into eight scalar multiplies in the reverb's loop.)
    @inlinable @inline(__always)
    public static func transform(low: SIMD4<Float>, high: SIMD4<Float>) -> (low: SIMD4<Float>, high: SIMD4<Float>) {
        let alternate = SIMD4<Float>(1, -1, 1, -1), halves = SIMD4<Float>(1, 1, -1, -1)
        // Bit 0: (x₀ + x₁, x₀ − x₁, x₂ + x₃, x₂ − x₃).
        let lowPairs = SIMD4(low[1], low[0], low[3], low[2]) + low * alternate
        let highPairs = SIMD4(high[1], high[0], high[3], high[2]) + high * alternate
        // Bit 1: (y₀ + y₂, y₁ + y₃, y₀ − y₂, y₁ − y₃).
        let lowQuads = SIMD4(lowPairs[2], lowPairs[3], lowPairs[0], lowPairs[1]) + lowPairs * halves
        let highQuads = SIMD4(highPairs[2], highPairs[3], highPairs[0], highPairs[1]) + highPairs * halves
        // Bit 2: the halves' sum and difference.
        return (lowQuads + highQuads, lowQuads - highQuads)
    }
}
