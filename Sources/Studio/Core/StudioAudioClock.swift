/// An instrument whose events are timed on its audio clock (the games: haptic events at the time their
/// sound plays). The session answers a page's `clock` message with ``audioTime(now:)``, so the page can
/// map audio time to its own `performance.now()` (docs/studio-protocol.md, "Clock sync").
public protocol StudioAudioClock: AnyObject {
    /// The audio clock in seconds at the server's monotonic time `now` (seconds). Never decreases.
    func audioTime(now: Double) -> Double
}
