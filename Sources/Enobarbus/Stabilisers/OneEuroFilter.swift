import Foundation

/// The One Euro filter (Casiez, Roussel, Vogel, CHI 2012) for one channel: a low-pass whose
/// cutoff rises with speed, `fc = minimumCutoff + beta·|dx̂/dt|`, so it is smooth when still
/// and quick when moving.
///
/// Time comes from the samples' timestamps (senders drop frames, so the real interval is used).
/// A gap longer than `reacquisitionGap` re-seeds the filter, so a source that comes back does
/// not glide from a stale value.
///
/// Tuning (per the paper): β = 0, lower `minimumCutoff` until still input stops jittering, then
/// raise β until fast moves stop lagging. β depends on the input's units: normalise first
/// (blendshapes 0…1, degrees for head angles, landmarks divided by palm size).
public struct OneEuroFilter: Sendable, Hashable {
    /// Cutoff at rest, Hz (> 0). Default 1.
    public var minimumCutoff: Double
    /// Cutoff increase per unit/s of speed (≥ 0). Default 0.
    public var beta: Double
    /// Cutoff of the derivative's own low-pass, Hz (> 0). Default 1.
    public var derivativeCutoff: Double
    /// Seconds without samples after which the next sample re-seeds. Default 0.5.
    public var reacquisitionGap: Double
    /// When true, `filter` returns its input unchanged (and keeps the state in step).
    public var isBypassed: Bool

    public private(set) var value: Double?
    public private(set) var derivative: Double = 0
    public private(set) var lastTime: Double?
    /// The previous raw sample: the derivative is taken between raw samples, as in the
    /// authors' reference implementation, so it measures the input's true speed.
    public private(set) var lastSample: Double?

    public init(minimumCutoff: Double = 1, beta: Double = 0, derivativeCutoff: Double = 1,
                reacquisitionGap: Double = 0.5, isBypassed: Bool = false) {
        self.minimumCutoff = minimumCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
        self.reacquisitionGap = reacquisitionGap
        self.isBypassed = isBypassed
    }

    /// The smoothing factor of a one-pole low-pass with cutoff `cutoff` Hz over `interval` seconds.
    @inlinable
    public static func alpha(cutoff: Double, interval: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / interval)
    }

    /// Filters sample `x` taken at `time` seconds. Non-finite samples leave the state alone.
    /// A sample whose time is not after the previous one returns the current estimate.
    public mutating func filter(_ x: Double, at time: Double) -> Double {
        guard x.isFinite, time.isFinite else { return value ?? 0 }
        if isBypassed {
            value = x; derivative = 0; lastTime = time; lastSample = x
            return x
        }
        guard let previous = value, let previousSample = lastSample, let t0 = lastTime,
              time - t0 <= reacquisitionGap else {
            value = x; derivative = 0; lastTime = time; lastSample = x
            return x
        }
        let dt = time - t0
        guard dt > 0 else { return previous }
        let rawDerivative = (x - previousSample) / dt
        derivative += Self.alpha(cutoff: derivativeCutoff, interval: dt) * (rawDerivative - derivative)
        let cutoff = max(minimumCutoff + beta * abs(derivative), 1e-6)
        let next = previous + Self.alpha(cutoff: cutoff, interval: dt) * (x - previous)
        value = next
        lastTime = time
        lastSample = x
        return next
    }

    /// Forgets the state; the next sample seeds the filter.
    public mutating func reset() {
        value = nil
        derivative = 0
        lastTime = nil
        lastSample = nil
    }
}
