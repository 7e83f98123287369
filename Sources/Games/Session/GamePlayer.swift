import Enobarbus

/// One game as it is played, by a script or by a live page: the one adapter between a game's model and
/// whatever drives it. `prospero game` (through ``GameSession``, offline) and the studio's game screens
/// (`GameStudioInstrument`, live) both play through it, so a game is made, started over, fed and left in
/// one way; each front end only routes the actions (audio commands to its engine, haptic events to its
/// track, the home button to its screen).
///
/// Harmony With Me's circles come from one random sequence: a game started over continues it, so two
/// games in a row never repeat each other's circles, and a script replays exactly from its seed.
public struct GamePlayer {
    public let kind: GameKind
    /// Seconds without touch before the home button shows.
    public let inactivityTimeout: Double
    /// The random source the next Harmony game starts from.
    public private(set) var random: GameRandom
    /// The model between ``start(at:aspectRatio:)`` and ``leave(at:)`` (nil before the first start and after leaving).
    public private(set) var model: (any GameModel)?

    public var isRunning: Bool { model != nil }

    /// - Parameters:
    ///   - seed: Harmony's random source.
    ///   - inactivityTimeout: seconds before the home button (the seed's 10).
    public init(kind: GameKind, seed: UInt64, inactivityTimeout: Double = InactivityMonitor.defaultTimeout) {
        self.kind = kind
        self.inactivityTimeout = inactivityTimeout
        random = GameRandom(seed: seed)
    }

    /// Starts the game (over) at `time` with a new model.
    /// - Parameter aspectRatio: the play area's width ÷ height (sizes Harmony's circle).
    public mutating func start(at time: Double, aspectRatio: Double) -> [GameAction] {
        if let harmony = model as? HarmonyWithMe<GameRandom> { random = harmony.random }
        var m: any GameModel
        switch kind {
        case .harmony: m = HarmonyWithMe(random: random, aspectRatio: aspectRatio, inactivityTimeout: inactivityTimeout)
        case .vibe: m = FeelYourVibe(inactivityTimeout: inactivityTimeout)
        case .touch: m = TouchForMusic(inactivityTimeout: inactivityTimeout)
        }
        let actions = m.start(at: time)
        model = m
        return actions
    }

    /// A touch frame (its timestamp is its time); nothing while no game runs.
    public mutating func handle(_ frame: TrackingFrame) -> [GameAction] {
        guard var m = model else { return [] }
        let actions = m.handle(frame)
        model = m
        return actions
    }

    /// Time passes to `time`; `musicPosition` is the music's position in its loop (seconds).
    public mutating func advance(to time: Double, musicPosition: Double) -> [GameAction] {
        guard var m = model else { return [] }
        let actions = m.advance(to: time, musicPosition: musicPosition)
        model = m
        return actions
    }

    /// The player leaves at `time` (the music fades out); the game no longer runs.
    public mutating func leave(at time: Double) -> [GameAction] {
        guard var m = model else { return [] }
        let actions = m.leave(at: time)
        if let harmony = m as? HarmonyWithMe<GameRandom> { random = harmony.random }
        model = nil
        return actions
    }
}
