/// Up to four state-variable filter recursions side by side, one per lane of a vector, each with its own settled
/// coefficients: `SVFState.tick`'s operations per lane, so each lane gives the scalar tick's bits at about a
/// quarter of its instructions. For filters whose samples are ready together (`FormantFilter`'s two band-passes,
/// and a filter running one sample ahead of them). Unused lanes hold zero coefficients and stay at zero.
@frozen
public struct SVFStateLanes: Sendable {
    public var a1: SIMD4<Float>
    public var a2: SIMD4<Float>
    public var a3: SIMD4<Float>
    public var ic1: SIMD4<Float>
    public var ic2: SIMD4<Float>

    /// Lanes 0 and 1 from the first two filters' coefficients and states, lane 2 from the third's when given;
    /// lane 3 (and lane 2 without a third) zero.
    @inlinable @inline(__always)
    public init(_ c0: SVFCoefficients, _ s0: SVFState, _ c1: SVFCoefficients, _ s1: SVFState,
                _ c2: SVFCoefficients? = nil, _ s2: SVFState = SVFState()) {
        a1 = SIMD4(c0.a1, c1.a1, c2?.a1 ?? 0, 0)
        a2 = SIMD4(c0.a2, c1.a2, c2?.a2 ?? 0, 0)
        a3 = SIMD4(c0.a3, c1.a3, c2?.a3 ?? 0, 0)
        ic1 = SIMD4(s0.ic1, s1.ic1, c2 == nil ? 0 : s2.ic1, 0)
        ic2 = SIMD4(s0.ic2, s1.ic2, c2 == nil ? 0 : s2.ic2, 0)
    }

    /// One tick of every lane on its input; returns the lanes' band and low outputs.
    @inlinable @inline(__always)
    public mutating func tick(_ input: SIMD4<Float>) -> (band: SIMD4<Float>, low: SIMD4<Float>) {
        let threshold = SIMD4<Float>(repeating: SVFState.flushThreshold)
        let v3 = input - ic2
        let v1 = a1 * ic1 + a2 * v3
        let v2 = ic2 + a2 * ic1 + a3 * v3
        let n1 = 2 * v1 - ic1
        let n2 = 2 * v2 - ic2
        // `abs(n) < threshold ? 0 : n` per lane (NaN kept, as there).
        ic1 = n1.replacing(with: 0, where: (n1 .< threshold) .& (n1 .> -threshold))
        ic2 = n2.replacing(with: 0, where: (n2 .< threshold) .& (n2 .> -threshold))
        return (v1, v2)
    }

    /// Lane `lane`'s state.
    @inlinable @inline(__always)
    public func state(_ lane: Int) -> SVFState {
        var s = SVFState()
        s.ic1 = ic1[lane]
        s.ic2 = ic2[lane]
        return s
    }
}
