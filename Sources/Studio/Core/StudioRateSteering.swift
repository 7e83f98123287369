/// Browser audio's clock follower: the page's audio clock is the master, the server's render clock
/// follows it. The page reports its jitter buffer's smoothed fill; this controller turns the error
/// (fill − target) into a render-rate ratio within ±``maximumDeviation`` (±0.05 %, under a cent:
/// 0.05 % is 0.87 cents, so the steering never wobbles the pitch audibly).
///
/// A proportional-integral controller on the fill error `x` (seconds): the fill changes as
/// `dx/dt = e + u`, where `e` is the clocks' mismatch and `u = ratio − 1` the correction. With
/// `u = −kp·x − ki·∫x`, the loop is `x'' + kp·x' + ki·x = e'`; `ki = kp²/4` makes it critically damped,
/// so a step in the mismatch makes one hump of error that decays without crossing zero (no overshoot,
/// no oscillation). The integral holds the steady mismatch; it stops integrating while the output is
/// saturated in the same direction (no wind-up). A pure value: the caller supplies the time.
public struct StudioRateSteering: Sendable, Equatable {
    /// Largest deviation of the render rate from nominal: 0.0005 (±0.05 %).
    public static let maximumDeviation = 0.0005
    /// Proportional gain (1/s): a fill error of 10 ms asks for the full ±0.05 %.
    public var proportionalGain = 0.05
    /// Integral gain (1/s²), kp²/4 (critical damping; the loop's time constant 2/kp = 40 s).
    public var integralGain = 0.05 * 0.05 / 4
    /// Reports further apart than this (s) are treated as a gap: the step is not integrated.
    public var maximumStep = 2.0

    /// The integral term (a rate deviation, ±maximumDeviation): the learnt clock mismatch.
    public private(set) var integral = 0.0
    /// The last output: render rate / nominal, within 1 ± maximumDeviation.
    public private(set) var ratio = 1.0
    /// The last fill error in seconds (fill − target).
    public private(set) var error = 0.0
    private var lastTime: Double?

    public init() {}

    /// A report at `time` (s, any monotonic clock): the page's smoothed buffer fill and its target
    /// (seconds). Returns the new ratio.
    @discardableResult
    public mutating func update(fill: Double, target: Double, at time: Double) -> Double {
        guard fill.isFinite, target.isFinite, time.isFinite else { return ratio }
        let x = fill - target
        error = x
        let limit = Self.maximumDeviation
        if let last = lastTime, time > last, time - last <= maximumStep {
            let dt = time - last
            let proposed = integral - integralGain * x * dt
            // Conditional integration: no wind-up while saturated in the direction it would push.
            let unsaturated = -proportionalGain * x + proposed
            if abs(unsaturated) < limit || (unsaturated > 0) != (proposed > integral) {
                integral = min(limit, max(-limit, proposed))
            }
        }
        lastTime = time
        let u = -proportionalGain * x + integral
        ratio = 1 + min(limit, max(-limit, u))
        return ratio
    }

    /// No page is listening: the proportional part goes, the learnt mismatch stays.
    public mutating func pause() {
        lastTime = nil
        error = 0
        ratio = 1 + integral
    }
}
