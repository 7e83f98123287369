import Enobarbus
import Haptics

/// Harmony With Me (seed 003): background music loops; when the music reaches a circle's position a
/// circle appears at a random place for a while; a touch inside it plays a random harmony phrase of the
/// current sound group with a thick haptic pulse; a touch outside does nothing; a phrase never starts
/// while another plays (`isPlayingHarmonySound`); the music fades in at the start and out on leaving;
/// each loop of the music resets the game; 10 s without touch shows the home button.
///
/// Numbers chosen here (the seed names the parts, not the values): circle radius 0.15 of the screen
/// width; circle schedule and sound groups in `HarmonySchedule`; fade in 1.5 s, fade out 1.0 s; the
/// thick pulse is `HapticManager.heavy` (five 0.2 s steps from full intensity). A touch counts when the
/// finger goes down (a tap), not while it drags. Hit testing is in screen units: x is scaled by the
/// width, y by the height (`aspectRatio` = width / height), so the circle is round on the screen.
public struct HarmonyWithMe<Random: RandomNumberGenerator>: GameModel {
    public struct Circle: Sendable, Hashable {
        /// Centre, 0…1 of the screen's width and height (origin top-left).
        public var x: Double
        public var y: Double
        /// Radius as a fraction of the screen's width.
        public var radius: Double
        /// Session times the circle appeared and goes away.
        public var shownAt: Double
        public var hiddenAt: Double
    }

    public static var circleRadius: Double { 0.15 }
    public static var fadeInTime: Double { 1.5 }
    public static var fadeOutTime: Double { 1.0 }

    public let schedule: HarmonySchedule
    /// Screen width ÷ height (portrait phones about 0.46).
    public let aspectRatio: Double
    public private(set) var random: Random
    /// The circle on screen, if any.
    public private(set) var circle: Circle?
    /// The sound group the music is in.
    public private(set) var soundGroup = 0
    /// Phrases played (for displays and tests).
    public private(set) var phrasesPlayed: [Int] = []
    /// How many times the game was reset by the music looping.
    public private(set) var resets = 0
    var nextCircle = 0
    var lastPosition = -1.0
    var harmonyEndsAt = -Double.infinity
    var touch = PrimaryTouch()
    var inactivity = InactivityMonitor()
    var now = 0.0

    /// - Parameter inactivityTimeout: seconds without touch before the home button shows (seed: 10).
    public init(random: Random, aspectRatio: Double = 9.0 / 19.5, schedule: HarmonySchedule = .song,
                inactivityTimeout: Double = InactivityMonitor.defaultTimeout) {
        self.random = random
        inactivity = InactivityMonitor(timeout: inactivityTimeout)
        self.aspectRatio = aspectRatio.isFinite && aspectRatio > 0 ? aspectRatio : 9.0 / 19.5
        self.schedule = schedule
    }

    public var showsHomeButton: Bool { inactivity.showsHomeButton }

    /// The seed's `isPlayingHarmonySound()`: a phrase is still sounding at the current time.
    public var isPlayingHarmonySound: Bool { now < harmonyEndsAt }

    public mutating func start(at time: Double) -> [GameAction] {
        now = time
        inactivity.start(at: time)
        resetGame()
        return [.audio(.masterLevel(1, ramp: 0.02)), .audio(.musicLevel(1, ramp: Self.fadeInTime))]
    }

    public mutating func leave(at time: Double) -> [GameAction] {
        now = time
        circle = nil
        return [.audio(.masterLevel(0, ramp: Self.fadeOutTime))]
    }

    /// The seed's `resetGame()`: no circle, the schedule from the top, the first sound group.
    mutating func resetGame() {
        circle = nil
        nextCircle = 0
        soundGroup = 0
    }

    /// The seed's `isTouchInsideCircle(at:)`, in screen units (see the type's comment).
    public func isInsideCircle(x: Double, y: Double) -> Bool {
        guard let c = circle else { return false }
        let dx = x - c.x
        let dy = (y - c.y) / aspectRatio
        return dx * dx + dy * dy <= c.radius * c.radius
    }

    public mutating func handle(_ frame: TrackingFrame) -> [GameAction] {
        guard let change = touch.ingest(frame) else { return [] }
        now = max(now, frame.timestamp)
        var actions: [GameAction] = []
        if let a = inactivity.touch(at: frame.timestamp) { actions.append(a) }
        guard case .began(let t) = change else { return actions }
        if let c = circle, frame.timestamp >= c.hiddenAt { circle = nil }
        guard isInsideCircle(x: Double(t.x), y: Double(t.y)), !isPlayingHarmonySound else { return actions }
        let index = soundGroup * GameSong.phrasesPerGroup + Int.random(in: 0..<GameSong.phrasesPerGroup, using: &random)
        phrasesPlayed.append(index)
        harmonyEndsAt = t.timestamp + HarmonyPhraseLengths.all[index] + GameSong.harmonyRelease
        actions.append(.audio(.playHarmony(index)))
        for e in HapticManager.heavy(at: t.timestamp).events { actions.append(.haptic(e)) }
        return actions
    }


    public mutating func advance(to time: Double, musicPosition: Double) -> [GameAction] {
        now = max(now, time)
        var actions: [GameAction] = []
        if let a = inactivity.advance(to: time) { actions.append(a) }
        // The music looped (the seed's MusicDelegate): reset the game.
        if musicPosition < lastPosition {
            resetGame()
            resets += 1
        }
        lastPosition = musicPosition
        soundGroup = schedule.group(at: musicPosition)
        if let c = circle, time >= c.hiddenAt { circle = nil }
        // The seed's `checkMusicPosition()`: show the circle when its position is reached.
        while nextCircle < schedule.circleTimes.count, musicPosition >= schedule.circleTimes[nextCircle] {
            let due = schedule.circleTimes[nextCircle]
            nextCircle += 1
            // A circle whose whole time has passed (a long gap in updates) is skipped.
            guard musicPosition < due + schedule.circleDuration else { continue }
            showCircleAtRandomPosition(at: time, until: time + (due + schedule.circleDuration - musicPosition))
        }
        return actions
    }

    /// The seed's `showCircleAtRandomPosition()`: anywhere the whole circle fits on the screen.
    mutating func showCircleAtRandomPosition(at time: Double, until end: Double) {
        let r = Self.circleRadius
        let ry = min(0.5, r * aspectRatio)
        let x = Double.random(in: r...(1 - r), using: &random)
        let y = ry < 0.5 ? Double.random(in: ry...(1 - ry), using: &random) : 0.5
        circle = Circle(x: x, y: y, radius: r, shownAt: time, hiddenAt: end)
    }
}
