import Enobarbus
import Haptics

/// Feel Your Vibe (seed 003): vertical swipes through the screen's middle set the tremolo's rate,
/// the horizontal position its depth, and each crossing of the middle is felt.
///
/// - Rate: the time Δt between two crossings of the horizontal centre line (y = 0.5) by the same
///   finger is half a cycle (one up-and-down swipe is one cycle), so f = 1/(2Δt); the rate is the mean
///   of the last `averagedCrossings` (4) such values, clamped to 0.1…10 Hz. It starts at 1.0 Hz, the
///   seed's LFO. Crossing times are interpolated between the two frames either side of the line.
///   A finger's first crossing only starts the timing.
/// - Depth: `amplitude = x · (maxDepth − minDepth) + minDepth` (seed's formula) with minDepth 0.1 (the
///   seed's starting depth) and maxDepth 1.0; it starts at 0.1 and follows every touch frame.
/// - Haptics: one `HapticManager.adaptiveEvent` at each crossing (continuous 0.2 s at ≤ 2 Hz, a
///   transient above), its amplitude from the swipe's speed through the line: speed in screen heights
///   per second ÷ 4, clamped to 0.2…1 (a brisk 4 heights/s swipe is full strength).
/// - The tremolo felt (seed 003, "haptic frequency mirrors audio tremolo frequency"): while the game runs,
///   one `HapticManager.adaptiveEvent` per tremolo cycle at amplitude = depth (at or below 2 Hz a
///   continuous 0.2 s pulse at 0.7 × depth, above a sharp transient at 0.6 × depth), at the cycle's start
///   on the session (audio) clock, whether or not a finger moves. The cycles are counted by integrating
///   the rate the audio engine is given (both start at phase 0 at `start`), and each pulse is scheduled
///   up to `pulseLead` (50 ms) before it is due, so a page can play it on time.
/// - Tremolo gain law: `VibeLFO.gain` (the volume swings between 1 and 1 − depth).
/// - Inactivity: the home button after 10 s without touch.
public struct FeelYourVibe: GameModel {
    public static let averagedCrossings = 4
    public static let minimumDepth = 0.1
    public static let maximumDepth = 1.0
    /// Swipe speed (screen heights per second) that gives full haptic amplitude.
    public static let fullSpeed = 4.0
    public static let minimumHapticAmplitude = 0.2
    public static let fadeInTime = 1.5
    public static let fadeOutTime = 1.0
    /// How far ahead (s) a tremolo pulse is scheduled.
    public static let pulseLead = 0.05

    /// Current LFO rate, Hz.
    public private(set) var frequency = VibeLFO.startFrequency
    /// Current LFO depth, 0…1.
    public private(set) var depth = VibeLFO.startAmplitude
    /// Session times of the crossings so far (for displays and tests).
    public private(set) var crossings: [Double] = []
    var lastCrossing: Double?
    var recentRates: [Double] = []
    var touch = PrimaryTouch()
    var inactivity = InactivityMonitor()
    /// Tremolo cycles since the start (integrated rate), the session time they were counted to, and the
    /// last cycle whose pulse went out; nil before the start and after leaving.
    var cycles = 0.0
    var cyclesTime: Double?
    var pulsedCycle = 0

    /// - Parameter inactivityTimeout: seconds without touch before the home button shows (seed: 10).
    public init(inactivityTimeout: Double = InactivityMonitor.defaultTimeout) {
        inactivity = InactivityMonitor(timeout: inactivityTimeout)
    }

    public var showsHomeButton: Bool { inactivity.showsHomeButton }

    public mutating func start(at time: Double) -> [GameAction] {
        inactivity.start(at: time)
        cycles = 0
        cyclesTime = time
        pulsedCycle = 0
        return [.audio(.masterLevel(1, ramp: 0.02)), .audio(.tremolo(rate: frequency, depth: Float(depth))),
                .audio(.musicLevel(1, ramp: Self.fadeInTime))]
    }

    public mutating func leave(at time: Double) -> [GameAction] {
        cyclesTime = nil
        return [.audio(.masterLevel(0, ramp: Self.fadeOutTime))]
    }

    public mutating func advance(to time: Double, musicPosition: Double) -> [GameAction] {
        var actions = inactivity.advance(to: time).map { [$0] } ?? []
        actions += tremoloPulses(to: time)
        return actions
    }

    /// Counts the tremolo's cycles up to `time` at the current rate (never backwards).
    mutating func countCycles(to time: Double) {
        guard let from = cyclesTime, time > from else { return }
        cycles += frequency * (time - from)
        cyclesTime = time
    }

    /// The pulses of the cycles that start by `time + pulseLead`, each at its cycle's start.
    mutating func tremoloPulses(to time: Double) -> [GameAction] {
        guard cyclesTime != nil else { return [] }
        countCycles(to: time)
        var pulses: [GameAction] = []
        // At most a few per call: the rate is at most 10 Hz and the clock is advanced every frame.
        while pulses.count < 16 {
            let next = pulsedCycle + 1
            let at = time + (Double(next) - cycles) / frequency
            guard at <= time + Self.pulseLead else { break }
            pulses.append(.haptic(HapticManager.adaptiveEvent(rate: frequency, amplitude: depth, at: at)))
            pulsedCycle = next
        }
        return pulses
    }

    /// The seed's amplitude mapping for a horizontal position x (0…1).
    public static func depth(forX x: Double) -> Double {
        min(max(x, 0), 1) * (maximumDepth - minimumDepth) + minimumDepth
    }

    public mutating func handle(_ frame: TrackingFrame) -> [GameAction] {
        guard let change = touch.ingest(frame) else { return [] }
        countCycles(to: frame.timestamp)   // the cycles so far ran at the rate before this frame
        var actions: [GameAction] = []
        if let a = inactivity.touch(at: frame.timestamp) { actions.append(a) }
        switch change {
        case .began(let t):
            lastCrossing = nil
            depth = Self.depth(forX: Double(t.x))
        case .moved(let t, let previous):
            depth = Self.depth(forX: Double(t.x))
            let y0 = Double(previous.y) - 0.5, y1 = Double(t.y) - 0.5
            if (y0 < 0) != (y1 < 0), t.timestamp > previous.timestamp {
                let fraction = y1 == y0 ? 0 : -y0 / (y1 - y0)
                let at = previous.timestamp + fraction * (t.timestamp - previous.timestamp)
                let speed = abs(y1 - y0) / (t.timestamp - previous.timestamp)
                crossings.append(at)
                if let last = lastCrossing, at > last {
                    recentRates.append(min(max(1 / (2 * (at - last)), VibeLFO.frequencyRange.lowerBound), VibeLFO.frequencyRange.upperBound))
                    if recentRates.count > Self.averagedCrossings { recentRates.removeFirst() }
                    frequency = recentRates.reduce(0, +) / Double(recentRates.count)
                }
                lastCrossing = at
                let amplitude = min(max(speed / Self.fullSpeed, Self.minimumHapticAmplitude), 1)
                actions.append(.haptic(HapticManager.adaptiveEvent(rate: frequency, amplitude: amplitude, at: at)))
            }
        case .ended:
            lastCrossing = nil
        }
        actions.append(.audio(.tremolo(rate: frequency, depth: Float(depth))))
        return actions
    }
}
