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
    /// Three constant-geometry butterfly stages, v → (even + odd, even − odd) as the
    /// new low and high halves: each is two shuffles, an addition and a subtraction.
    /// Stage s pairs the inputs whose indices differ in bit s, so the additions are
    /// grouped exactly as in the in-place radix-2 transform (24 additions,
    /// bit-identical results).
    @inlinable @inline(__always)
    public static func transform(low: SIMD4<Float>, high: SIMD4<Float>) -> (low: SIMD4<Float>, high: SIMD4<Float>) {
        var a = low
        var b = high
        for _ in 0..<3 {
            let even = SIMD4(a[0], a[2], b[0], b[2])
            let odd = SIMD4(a[1], a[3], b[1], b[3])
            a = even + odd
            b = even - odd
        }
        return (a, b)
    }
}
