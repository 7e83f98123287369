/// The games' inactivity rule: the home button shows after `timeout` seconds without a touch, and any
/// touch hides it again.
///
/// The seed polls with a 1 s timer; this model shows the button at exactly last touch + timeout (the
/// time a 1 s poll would approach from above), so tests can check the documented value.
public struct InactivityMonitor: Sendable, Hashable {
    /// Seconds without touch before the home button shows (seed: 10 s).
    public static let defaultTimeout = 10.0

    public let timeout: Double
    /// Time of the last touch (or of the start).
    public private(set) var lastActivity: Double
    public private(set) var showsHomeButton = false

    public init(timeout: Double = defaultTimeout, start: Double = 0) {
        self.timeout = timeout
        lastActivity = start
    }

    /// Restarts the timer at `time` (the game starts).
    public mutating func start(at time: Double) {
        lastActivity = time
        showsHomeButton = false
    }

    /// A touch at `time`: hides the button. Returns the action when it was showing.
    public mutating func touch(at time: Double) -> GameAction? {
        lastActivity = max(lastActivity, time)
        guard showsHomeButton else { return nil }
        showsHomeButton = false
        return .homeButton(visible: false)
    }

    /// Time passes: shows the button once `timeout` has passed since the last touch.
    public mutating func advance(to time: Double) -> GameAction? {
        guard !showsHomeButton, time - lastActivity >= timeout else { return nil }
        showsHomeButton = true
        return .homeButton(visible: true)
    }
}
