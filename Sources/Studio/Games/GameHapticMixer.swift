import Haptics

/// Merges a game's haptic events into bursts a page can play with `navigator.vibrate`, which plays
/// one pattern at a time: each new burst starts at its earliest event and also carries the part of
/// every earlier event not yet felt (a continuous event cut at the burst's start; a transient inside
/// its 30 ms waveform length becomes the continuous rest of it), so nothing already promised is lost
/// when the page's new call cancels the old pattern.
public struct GameHapticMixer: Sendable {
    /// Events kept, absolute times on the session clock (only those not yet over).
    public private(set) var pending: [HapticEvent] = []
    public private(set) var serial = 0

    public init() {}

    /// Seconds an event occupies on a waveform target (a transient's `HapticTimeline.transientLength`).
    public static func length(of e: HapticEvent) -> Double {
        e.type == .hapticTransient ? HapticTimeline.transientLength : e.effectiveDuration
    }

    /// `e` seen from `start`: its time relative to `start`, cut when it began earlier; nil when it is over.
    public static func trimmed(_ e: HapticEvent, from start: Double) -> HapticEvent? {
        let end = e.time + length(of: e)
        guard end > start else { return nil }
        if e.time >= start {
            var shifted = e
            shifted.time = e.time - start
            return shifted
        }
        return .continuous(at: 0, duration: end - start, intensity: e.intensity, sharpness: e.sharpness)
    }

    /// Adds `events` (absolute times); the burst to play, nil when `events` holds no haptic event.
    ///
    /// - Parameter now: the session time the events became known (a touch's arrival). Events stamped
    ///   earlier (Feel Your Vibe's crossing, interpolated between two touch frames) move to `now`
    ///   together, keeping their spacing: their sound changes at `now` too (the model's commands reach
    ///   the engine from then on), and a page cannot play a pattern in the past.
    public mutating func add(_ events: [HapticEvent], at now: Double? = nil) -> GameHapticBurst? {
        var haptic = events.filter { $0.type.isHaptic }
        guard let first = haptic.map(\.time).min() else { return nil }
        if let now, now.isFinite, first < now {
            for k in haptic.indices { haptic[k].time += now - first }
        }
        let start = max(first, now ?? first)
        pending = pending.filter { $0.time + Self.length(of: $0) > start } + haptic
        serial += 1
        let merged = pending.compactMap { Self.trimmed($0, from: start) }.sorted { $0.time < $1.time }
        return GameHapticBurst(serial: serial, time: start, events: merged)
    }

    /// Forgets every event (the game restarts or leaves).
    public mutating func reset() { pending.removeAll() }
}
