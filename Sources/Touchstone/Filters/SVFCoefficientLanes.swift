/// Four consecutive samples' `SVFCoefficients`, one sample per lane: what a gliding
/// `StateVariableFilter` computes four at a time (`nextFourCoefficients()`), since none of it depends on
/// the filter's state.
@frozen
public struct SVFCoefficientLanes: Sendable {
    public var g: SIMD4<Float>
    public var k: SIMD4<Float>
    public var a1: SIMD4<Float>
    public var a2: SIMD4<Float>
    public var a3: SIMD4<Float>

    /// Lanes from `g` and `k` per lane, with `SVFCoefficients.updateGains`'s operations per lane.
    @inlinable @inline(__always)
    public init(g: SIMD4<Float>, k: SIMD4<Float>) {
        self.g = g
        self.k = k
        a1 = 1 / (1 + g * (g + k))
        a2 = g * a1
        a3 = g * a2
    }

    /// `coefficients` in every lane (a settled filter).
    @inlinable @inline(__always)
    public init(repeating coefficients: SVFCoefficients) {
        g = SIMD4(repeating: coefficients.g)
        k = SIMD4(repeating: coefficients.k)
        a1 = SIMD4(repeating: coefficients.a1)
        a2 = SIMD4(repeating: coefficients.a2)
        a3 = SIMD4(repeating: coefficients.a3)
    }

    /// The coefficients of one sample, 0…3.
    @inlinable @inline(__always)
    public subscript(lane: Int) -> SVFCoefficients {
        SVFCoefficients(g: g[lane], k: k[lane], a1: a1[lane], a2: a2[lane], a3: a3[lane])
    }
}

extension SVFCoefficients {
    /// Coefficients exactly as given (already consistent, e.g. one lane of `SVFCoefficientLanes`).
    @inlinable @inline(__always)
    init(g: Float, k: Float, a1: Float, a2: Float, a3: Float) {
        self.g = g
        self.k = k
        self.a1 = a1
        self.a2 = a2
        self.a3 = a3
    }
}
