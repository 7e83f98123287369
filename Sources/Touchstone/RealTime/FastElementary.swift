/// Inlinable single-precision `exp2`, `exp` and `tanh` for per-sample use.
///
/// The C library's `expf`/`tanhf` are opaque calls the optimiser cannot inline or
/// vectorise, and `@_noAllocation` rejects them as "unpredictable performance".
/// These are plain arithmetic: 2^x splits x into an integer n (exponent bits) and
/// a remainder r ∈ [−½, ½] evaluated with the degree-6 Taylor polynomial of 2^r
/// (truncation error < 1.3e-7 relative). Never traps: NaN in gives NaN out, and
/// inputs are clamped to the normal range (2^−126…2^127).
@usableFromInline
enum FastElementary {
    /// 2^x, relative error < 2e-7 for x ∈ [−126, 127]; clamped outside.
    @inlinable @inline(__always)
    static func exp2(_ x: Float) -> Float {
        var clamped = x
        clamped = clamped < -126 ? -126 : clamped
        clamped = clamped > 127 ? 127 : clamped
        // Adding 1.5·2^23 rounds to an integer held in the low mantissa bits.
        let roundingMagic: Float = 12_582_912
        let shifted = clamped + roundingMagic
        let integerPart = shifted - roundingMagic
        let n = Int32(bitPattern: shifted.bitPattern) &- 0x4B40_0000
        let r = clamped - integerPart
        let ln2: Float = 0.693_147_18
        var p: Float = 1.540_353_0e-4
        p = p * r + 1.333_355_8e-3
        p = p * r + 9.618_129_1e-3
        p = p * r + 5.550_410_9e-2
        p = p * r + 0.240_226_51
        p = p * r + ln2
        p = p * r + 1
        let scale = Float(bitPattern: UInt32(truncatingIfNeeded: n &+ 127) << 23)
        return p * scale
    }

    /// e^x, relative error < 3e-7 for |x| < 87; clamped outside.
    @inlinable @inline(__always)
    static func exp(_ x: Float) -> Float {
        exp2(x * 1.442_695_04)
    }

    /// tanh(x), absolute error < 3e-7 for all x; exactly ±1 beyond |x| ≈ 9.
    @inlinable @inline(__always)
    static func tanh(_ x: Float) -> Float {
        let magnitude = abs(x)
        let e = exp2(magnitude * 2.885_390_08)  // e^(2|x|)
        let t = 1 - 2 / (e + 1)
        return x < 0 ? -t : t
    }

    /// `exp2` in four lanes: the same operations in the same order, so each lane equals the scalar result bit
    /// for bit.
    @inlinable @inline(__always)
    static func exp2(_ x: SIMD4<Float>) -> SIMD4<Float> {
        var clamped = x
        clamped = clamped.replacing(with: -126, where: clamped .< -126)
        clamped = clamped.replacing(with: 127, where: clamped .> 127)
        let roundingMagic: Float = 12_582_912
        let shifted = clamped + roundingMagic
        let integerPart = shifted - roundingMagic
        let n = unsafeBitCast(shifted, to: SIMD4<Int32>.self) &- 0x4B40_0000
        let r = clamped - integerPart
        let ln2: Float = 0.693_147_18
        var p = SIMD4<Float>(repeating: 1.540_353_0e-4)
        p = p * r + 1.333_355_8e-3
        p = p * r + 9.618_129_1e-3
        p = p * r + 5.550_410_9e-2
        p = p * r + 0.240_226_51
        p = p * r + ln2
        p = p * r + 1
        let scale = unsafeBitCast((n &+ 127) &<< 23, to: SIMD4<Float>.self)
        return p * scale
    }

    /// `tanh` in four lanes, each equal to the scalar result bit for bit.
    @inlinable @inline(__always)
    static func tanh(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let magnitude = unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
        let e = exp2(magnitude * 2.885_390_08)
        let t = 1 - 2 / (e + 1)
        return t.replacing(with: -t, where: x .< 0)
    }
}
