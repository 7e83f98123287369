extension SVFCoefficients {
    /// `prewarp(cutoff:inverseSampleRate:)` for four cutoffs (Hz) at once, lane for lane the same Float
    /// operations in the same order (the same bits): g = tan(π · clamp(cutoff/fs, 1 Hz/fs … 0.49)).
    ///
    /// Why four at once: a cutoff gliding every sample costs a polynomial tangent and a division per
    /// sample, and none of it depends on the filter's state, so `StateVariableFilter` computes four
    /// samples' coefficients in one vector pass before running the recursion over them.
    @inlinable @inline(__always)
    public static func prewarp(cutoffs: SIMD4<Float>, inverseSampleRate: Float) -> SIMD4<Float> {
        let scaled = cutoffs * inverseSampleRate
        let lowest = SIMD4<Float>(repeating: minimumCutoff * inverseSampleRate)
        let highest = SIMD4<Float>(repeating: maximumNormalizedCutoff)
        // Swift's max(x, y) is `y >= x ? y : x` and min(x, y) is `y < x ? y : x`; the blends say the same.
        let raised = scaled.replacing(with: lowest, where: lowest .>= scaled)
        let normalized = raised.replacing(with: highest, where: highest .< raised)
        let theta = normalized * (3.14159265358979 as Float)
        return sinQuarter(theta) / cosQuarter(theta)
    }

    /// `damping(q:)` for four Q values (0.1…50 after clamping) at once: k = 1/Q, the same bits per lane.
    @inlinable @inline(__always)
    public static func damping(qs: SIMD4<Float>) -> SIMD4<Float> {
        let lowest = SIMD4<Float>(repeating: qRange.lowerBound), highest = SIMD4<Float>(repeating: qRange.upperBound)
        let raised = qs.replacing(with: lowest, where: lowest .>= qs)
        return 1 / raised.replacing(with: highest, where: highest .< raised)
    }

    /// `FastTrigonometry.sinQuarter` per lane, its constants and operation order unchanged.
    @inlinable @inline(__always)
    static func sinQuarter(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let x2 = x * x
        let c11: Float = -1.0 / 39_916_800, c9: Float = 1.0 / 362_880, c7: Float = 1.0 / 5_040
        let c5: Float = 1.0 / 120, c3: Float = 1.0 / 6
        var p = SIMD4<Float>(repeating: c11)
        p = p * x2 + c9
        p = p * x2 - c7
        p = p * x2 + c5
        p = p * x2 - c3
        p = p * x2 + 1
        return p * x
    }

    /// `FastTrigonometry.cosQuarter` per lane, its constants and operation order unchanged.
    @inlinable @inline(__always)
    static func cosQuarter(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let x2 = x * x
        let c12: Float = 1.0 / 479_001_600, c10: Float = 1.0 / 3_628_800, c8: Float = 1.0 / 40_320
        let c6: Float = 1.0 / 720, c4: Float = 1.0 / 24
        var p = SIMD4<Float>(repeating: c12)
        p = p * x2 - c10
        p = p * x2 + c8
        p = p * x2 - c6
        p = p * x2 + c4
        p = p * x2 - 0.5
        return p * x2 + 1
    }
}
