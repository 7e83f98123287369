import Haptics

/// What a page plays when haptic events arrive: one `navigator.vibrate` pattern from `time` (session
/// clock, s), rendered by the haptics module's ``WebVibrationPattern`` from every event still to be felt
/// at `time` (the new ones and the rest of those already playing), because each `vibrate` call cancels
/// the one before.
public struct GameHapticBurst: Sendable, Hashable {
    /// Increases by one per burst (pages play each once).
    public var serial: Int
    /// Session-clock time of the pattern's start, seconds.
    public var time: Double
    /// The merged events, times relative to `time`.
    public var events: [HapticEvent]
    /// `navigator.vibrate` pattern: ms, alternating on/off, starting with on.
    public var pattern: [Int]

    public init(serial: Int, time: Double, events: [HapticEvent]) {
        self.serial = serial
        self.time = time
        self.events = events
        pattern = WebVibrationPattern(HapticPattern(events: events)).pattern
    }

    /// Strongest intensity in the burst (the indicator's size), 0…1.
    public var peak: Double { events.map(\.intensity).max() ?? 0 }
}
