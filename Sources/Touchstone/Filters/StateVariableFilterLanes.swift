/// Eight settled `StateVariableFilter`s side by side in SIMD lanes: per lane its own coefficients and
/// integrator states, one vector step for all eight (`SVFState.tick` lane by lane, the same arithmetic in
/// the same order, so the outputs equal eight scalar filters exactly; tested).
///
/// For voice loops that render eight voices at once. The lanes do not smooth: load them from scalar
/// filters that are not gliding (`isSmoothing == false`), or set coefficients per lane; a voice whose
/// cutoff moves takes its scalar filter for that block.
///
///     var lanes = StateVariableFilterLanes()
///     for v in 0..<8 { lanes.load(v, from: filters[v]) }
///     let low = lanes.tick(input).low             // SIMD8<Float>
///     for v in 0..<8 { lanes.store(v, into: &filters[v]) }
@frozen
public struct StateVariableFilterLanes: Sendable {
    public typealias Vector = SIMD8<Float>

    @usableFromInline var ic1 = Vector()
    @usableFromInline var ic2 = Vector()
    @usableFromInline var a1 = Vector(repeating: 1)
    @usableFromInline var a2 = Vector()
    @usableFromInline var a3 = Vector()
    @usableFromInline var k = Vector(repeating: 1)

    /// Eight silent lanes that pass nothing (g = 0) until loaded.
    public init() {}

    /// Takes `filter`'s current coefficients and states into `lane` (0…7).
    @inlinable
    public mutating func load(_ lane: Int, from filter: StateVariableFilter) {
        setCoefficients(lane, filter.currentCoefficients)
        ic1[lane] = filter.state.ic1
        ic2[lane] = filter.state.ic2
    }

    /// Writes `lane`'s integrator states back into `filter` (its coefficients are its own).
    @inlinable
    public func store(_ lane: Int, into filter: inout StateVariableFilter) {
        var s = SVFState()
        s.ic1 = ic1[lane]
        s.ic2 = ic2[lane]
        if !(s.ic1.isFinite && s.ic2.isFinite) { s.reset() }   // as the scalar filter recovers
        filter.state = s
    }

    /// Sets `lane`'s coefficients (its states stay).
    @inlinable
    public mutating func setCoefficients(_ lane: Int, _ c: SVFCoefficients) {
        a1[lane] = c.a1
        a2[lane] = c.a2
        a3[lane] = c.a3
        k[lane] = c.k
    }

    /// Clears `lane`'s states (silence).
    @inlinable
    public mutating func reset(_ lane: Int) {
        ic1[lane] = 0
        ic2[lane] = 0
    }

    /// Advances every lane one sample with input `v0`; returns the band (v1) and low (v2) outputs.
    /// States below `SVFState.flushThreshold` are flushed to 0, as in the scalar filter.
    @inlinable @inline(__always)
    public mutating func tick(_ v0: Vector) -> (band: Vector, low: Vector) {
        let s1 = ic1, s2 = ic2
        let v3 = v0 - s2
        let v1 = a1 * s1 + a2 * v3
        let v2 = s2 + a2 * s1 + a3 * v3
        let n1 = 2 * v1 - s1
        let n2 = 2 * v2 - s2
        let threshold = Vector(repeating: SVFState.flushThreshold)
        ic1 = n1.replacing(with: 0, where: (n1 .< threshold) .& (n1 .> -threshold))
        ic2 = n2.replacing(with: 0, where: (n2 .< threshold) .& (n2 .> -threshold))
        return (v1, v2)
    }

    /// The damping 1/Q per lane (for responses that mix in the band output, `R.output(…k:)`).
    @inlinable public var damping: Vector { k }
}
