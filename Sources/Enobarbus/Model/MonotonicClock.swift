/// Seconds on a monotonic clock shared by receivers and lifecycles in one process.
///
/// Frame timestamps are compared with lifecycle timeouts, so they must come from a clock
/// that never jumps (not wall time). The origin is the first call in the process.
public enum MonotonicClock {
    private static let origin = ContinuousClock.now

    /// Seconds since the process's first call, monotonic.
    public static func now() -> Double {
        let d = ContinuousClock.now - origin
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
