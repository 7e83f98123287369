/// The two integrator states of one channel of a trapezoidal state-variable filter.
@frozen
public struct SVFState: Sendable, Hashable {
    /// Integrator states (Simper's ic1eq, ic2eq).
    public var ic1: Float = 0
    public var ic2: Float = 0

    public init() {}

    /// States below this magnitude are flushed to 0 every sample, so a decaying filter never computes
    /// with subnormal numbers even without flush-to-zero (−400 dBFS: inaudible).
    public static let flushThreshold: Float = 1e-20

    /// Advances one sample with input `v0` and returns the band (v1) and low (v2) outputs.
    ///
    /// Simper's form computes v1 and v2 side by side from the states (not v2 from v1), which shortens
    /// the feedback path the CPU must wait for every sample.
    @inlinable @inline(__always)
    public mutating func tick(_ v0: Float, _ c: SVFCoefficients) -> (band: Float, low: Float) {
        let v3 = v0 - ic2
        let v1 = c.a1 * ic1 + c.a2 * v3
        let v2 = ic2 + c.a2 * ic1 + c.a3 * v3
        let n1 = 2 * v1 - ic1
        let n2 = 2 * v2 - ic2
        ic1 = abs(n1) < Self.flushThreshold ? 0 : n1
        ic2 = abs(n2) < Self.flushThreshold ? 0 : n2
        return (v1, v2)
    }

    /// Zeroes both states. Also used to recover after a non-finite input.
    @inlinable
    public mutating func reset() {
        ic1 = 0
        ic2 = 0
    }
}
