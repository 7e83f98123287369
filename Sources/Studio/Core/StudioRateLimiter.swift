/// A token bucket per client: `rate` messages a second on average, bursts up to `burst`. The default
/// leaves room for 120 messages a second (a pad sending touches at display rate plus controls).
/// Time is given by the caller (seconds, monotonic), so tests need no clock.
public struct StudioRateLimiter: Sendable, Equatable {
    public var rate: Double
    public var burst: Double
    private var tokens: Double
    private var last: Double?
    /// Messages refused so far.
    public private(set) var refused = 0

    public init(rate: Double = 200, burst: Double = 400) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// True when a message arriving at `now` may pass (and takes a token).
    public mutating func allow(at now: Double) -> Bool {
        if let last, now > last { tokens = min(burst, tokens + (now - last) * rate) }
        last = max(last ?? now, now)
        if tokens >= 1 {
            tokens -= 1
            return true
        }
        refused += 1
        return false
    }
}
