/// Prospero's hand-position stabiliser: an exponential moving average with a velocity clamp
/// and stale-frame recovery.
///
/// - A sample that moves more than `maximumStep` (screen units, 0…1) from the last accepted
///   sample is treated as a tracker glitch and rejected: the output holds.
/// - After `recoveryRejections` (5) consecutive rejections the jump is taken as real: the
///   next far sample (the 6th) is accepted and the filter snaps to it, with no glide from
///   the stale value.
/// - Accepted samples are smoothed: `y += α·(x − y)` with α = `smoothing` (0.6 = 60 % of the
///   way to the new sample each frame).
///
///     var stabilizer = PositionStabilizer()
///     let steady = stabilizer.update(SIMD2(0.41, 0.52))
public struct PositionStabilizer: Sendable, Hashable {
    /// EMA weight of the new sample, 0…1 (1 = no smoothing). Default 0.6.
    public var smoothing: Float
    /// Largest accepted move per frame from the last accepted sample, screen units. Default 0.15.
    public var maximumStep: Float
    /// Consecutive rejections after which a jump is accepted. Default 5.
    public var recoveryRejections: Int
    /// When true, `update` returns its input unchanged (and keeps the state in step).
    public var isBypassed: Bool

    /// The current smoothed position, nil before the first sample.
    public private(set) var position: SIMD2<Float>?
    /// The last sample that was accepted (the reference for the velocity clamp).
    public private(set) var lastAccepted: SIMD2<Float>?
    public private(set) var consecutiveRejections = 0

    public init(smoothing: Float = 0.6, maximumStep: Float = 0.15, recoveryRejections: Int = 5, isBypassed: Bool = false) {
        self.smoothing = smoothing
        self.maximumStep = maximumStep
        self.recoveryRejections = recoveryRejections
        self.isBypassed = isBypassed
    }

    /// Feeds one frame's position (screen units, 0…1) and returns the stabilised position.
    /// Non-finite samples are rejected without counting toward recovery.
    public mutating func update(_ sample: SIMD2<Float>) -> SIMD2<Float> {
        if isBypassed {
            position = sample
            lastAccepted = sample
            consecutiveRejections = 0
            return sample
        }
        guard sample.x.isFinite, sample.y.isFinite else { return position ?? .zero }
        guard let current = position, let reference = lastAccepted else {
            position = sample
            lastAccepted = sample
            return sample
        }
        let d = sample - reference
        if (d.x * d.x + d.y * d.y).squareRoot() > maximumStep {
            if consecutiveRejections < recoveryRejections {
                consecutiveRejections += 1
                return current
            }
            // Stale-frame recovery: the tracker has insisted long enough, the jump is real.
            consecutiveRejections = 0
            position = sample
            lastAccepted = sample
            return sample
        }
        consecutiveRejections = 0
        lastAccepted = sample
        let next = current + smoothing * (sample - current)
        position = next
        return next
    }

    /// Forgets the state, so the next sample seeds the filter (call on re-acquisition).
    public mutating func reset() {
        position = nil
        lastAccepted = nil
        consecutiveRejections = 0
    }
}
