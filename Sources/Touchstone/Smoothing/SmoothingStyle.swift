/// How a `SmoothedParameter` moves towards a new target.
public enum SmoothingStyle: Sendable, Hashable, CaseIterable {
    /// A straight line reaching the target in exactly the ramp time. For gains, mixes, positions.
    case linear
    /// A straight line in the logarithmic domain (constant ratio per sample), reaching the target in
    /// exactly the ramp time. For frequencies and Q, so a sweep sounds even in pitch.
    /// Values are clamped to ≥ `SmoothedParameter.minimumMultiplicativeValue`; it cannot reach 0.
    case multiplicative
    /// A one-pole exponential approach; the ramp time is the time constant (63 % of the way).
    /// Fast to respond, slow to finish; snaps once within 1e-6 (relative) of the target.
    case exponential
}
