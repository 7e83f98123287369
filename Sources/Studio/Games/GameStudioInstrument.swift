import Ariel
import Enobarbus
import Games
import Haptics
import InstrumentSettings
import LiveHost

/// A touch game of seed 003 as a studio screen (`/games/<id>/`): the game (a ``GamePlayer``, the adapter
/// `prospero game` plays through too) gets the page's fingers and the session clock (``GameStudioClock``: the audio
/// clock while audio renders); its audio commands go to ``GameAudioEngine`` through Ariel's command
/// ring; its haptic events are merged into bursts (``GameHapticMixer``) that every page receives at
/// once as a `changed` message and plays with `navigator.vibrate` at the burst's time (the page maps
/// the session clock to its own through the protocol's `clock` message).
///
/// Subclasses name the game: ``HarmonyStudioInstrument``, ``VibeStudioInstrument``, ``TouchStudioInstrument``.
///
/// Actions: `<id>.start` (value: the play area's width ÷ height, or null; the game starts over: music from
/// the top, fade in), `<id>.leave` (fade out; the home button's way back), `<id>.export` (value `"ahap"` or
/// `"android"`: the session's haptic track since the start as an AHAP file or an Android waveform,
/// answered as the change `export` {`format`, `name`, `text`, `events`}). No `set` controls.
/// Touches: one finger plays (the first down, as the seed's single drag gesture); `cancel`, like `up`,
/// lifts it, so a lost page ends its sound. Changes: `running`, `home`, `haptic` (a burst: `serial`,
/// `time`, `pattern`, `events` [{`t`, `d`, `i`, `s`, `kind`}], `peak`). Frame: `t` (session clock, s),
/// `running`, `home`, `music` (position in the loop, s), `rendering`, and per game (see the subclasses' `gameFrame`).
public class GameStudioInstrument: StudioInstrument, StudioAudioClock {
    /// The protocol id; each subclass overrides it.
    public class var id: String { "game" }
    public class var kind: GameKind { .touch }

    /// Events the haptic track keeps for export (the oldest go first past this).
    public static let maximumTrackEvents = 2_000
    /// Touch frames kept in ``inputLog`` (for displays and tests).
    public static let maximumInputLog = 2_000
    /// Inactivity timeouts accepted, seconds.
    public static let inactivityRange = 0.5...600.0

    public let kind: GameKind
    public var displayName: String { kind.title }
    public var summary: String { Self.summaries[kind] ?? "" }
    public let output: GameStudioAudio
    public var audio: any StudioAudioEngine { output }
    /// Seconds without touch before the home button shows.
    public let inactivityTimeout: Double

    /// The game: its model between `start` and `leave`, and Harmony's random sequence across games.
    public private(set) var player: GamePlayer
    /// The model, between `start` and `leave` (nil before the first start).
    public var model: (any GameModel)? { player.model }
    /// Session time the game started (s).
    public private(set) var startedAt = 0.0
    /// The haptic events since the start, session times (bounded by ``maximumTrackEvents``).
    public private(set) var track: [HapticEvent] = []
    /// The touch frames the model got since the start (bounded by ``maximumInputLog``).
    public private(set) var inputLog: [TrackingFrame] = []
    /// Every burst sent since the start (bounded like the track).
    public private(set) var bursts: [GameHapticBurst] = []
    public private(set) var clock: GameStudioClock
    var mixer = GameHapticMixer()
    var aspectRatio = 9.0 / 19.5
    var homeShown = false
    var lastFrameRunning = false
    /// Changes made as time passed (tremolo pulses, the home button), until the session takes them;
    /// at most ``maximumUnsent`` (the oldest go: a session that never asks must not grow this).
    var unsent: [[String: StudioValue]] = []
    static let maximumUnsent = 64
    /// Fingers down: "<client>#<id>" → model slot.
    var slots: [String: Int] = [:]
    let monotonic: () -> Double
    /// The audio server's clock with the input delay (JACK's; nil: commands apply at the next block): a
    /// touch's sound is due at its arrival plus the delay, as the hands' and Hecate's input is, so the
    /// control thread's jitter never moves it.
    let frameClock: (any LiveFrameClock)?

    /// - Parameters:
    ///   - seed: the random source of Harmony's circles and phrases (nil: a random seed).
    ///   - inactivityTimeout: seconds before the home button (seed: 10; 0.5…600).
    ///   - now: the monotonic clock in seconds (tests inject one).
    ///   - frameClock: the audio clock with the input delay: the sound a touch makes is due on it.
    public required init(seed: UInt64? = nil, inactivityTimeout: Double = InactivityMonitor.defaultTimeout,
                         now: @escaping () -> Double = MonotonicClock.now, frameClock: (any LiveFrameClock)? = nil) {
        kind = Self.kind
        output = GameStudioAudio()
        let t = inactivityTimeout.isFinite ? inactivityTimeout : InactivityMonitor.defaultTimeout
        self.inactivityTimeout = min(max(t, Self.inactivityRange.lowerBound), Self.inactivityRange.upperBound)
        player = GamePlayer(kind: Self.kind, seed: seed ?? UInt64.random(in: 0...UInt64.max), inactivityTimeout: self.inactivityTimeout)
        monotonic = now
        self.frameClock = frameClock
        clock = GameStudioClock(start: now())
    }

    static let summaries: [GameKind: String] = [
        .harmony: "Tap the circle when it appears with the music: each hit adds a harmony phrase and a heavy pulse.",
        .vibe: "Swipe up and down through the middle to set the tremolo's speed; left to right sets its depth. Felt at each crossing.",
        .touch: "Touch and hold anywhere: higher is louder. A circle follows your finger; every touch is felt.",
    ]

    static let instructions: [GameKind: String] = [
        .harmony: "Tap the circle when it appears",
        .vibe: "Swipe up and down through the middle · left to right sets the depth",
        .touch: "Touch and hold · higher is louder",
    ]

    // MARK: Clock

    /// The session clock at monotonic time `now`.
    public func audioTime(now: Double) -> Double {
        clock.time(now: now, frames: output.renderedFrames, sampleRate: output.sampleRate)
    }

    var currentTime: Double { audioTime(now: monotonic()) }

    /// Position in the music's loop: the engine's while it renders, else the clock's since the start.
    func musicPosition(at time: Double) -> Double {
        if clock.rendering, let s = output.host.latestSnapshot().snapshot { return s.musicPosition }
        let length = GameSong.length
        let p = (time - startedAt).truncatingRemainder(dividingBy: length)
        return p < 0 ? p + length : p
    }

    // MARK: Game

    /// Applies actions at session time `now`: audio to the engine (due at audio frame `due`, nil: the next
    /// block), haptics to the track (their model times) and the mixer (not before `now`); the changes to send.
    func apply(_ actions: [GameAction], at now: Double, due: UInt32? = nil) -> [String: StudioValue] {
        var haptics: [HapticEvent] = []
        var changes: [String: StudioValue] = [:]
        for a in actions {
            switch a {
            case .audio(let command): output.host.send(command, dueAt: due)
            case .haptic(let e): haptics.append(e)
            case .homeButton(let visible):
                homeShown = visible
                changes["home"] = .bool(visible)
            }
        }
        if !haptics.isEmpty {
            track.append(contentsOf: haptics)
            if track.count > Self.maximumTrackEvents { track.removeFirst(track.count - Self.maximumTrackEvents) }
            if let burst = mixer.add(haptics, at: now) {
                bursts.append(burst)
                if bursts.count > Self.maximumTrackEvents { bursts.removeFirst(bursts.count - Self.maximumTrackEvents) }
                changes["haptic"] = Self.json(burst)
            }
        }
        return changes
    }

    func start(at time: Double, due: UInt32? = nil) -> [String: StudioValue] {
        startedAt = time
        track.removeAll()
        inputLog.removeAll()
        bursts.removeAll()
        unsent.removeAll()
        mixer.reset()
        slots.removeAll()
        homeShown = false
        output.host.send(.restartMusic, dueAt: due)
        output.host.send(.tremolo(rate: VibeLFO.startFrequency, depth: 0), dueAt: due)
        var changes = apply(player.start(at: time, aspectRatio: aspectRatio), at: time, due: due)
        changes["running"] = .bool(true)
        changes["home"] = .bool(false)
        return changes
    }

    // MARK: StudioInstrument

    public func stateJSON() -> [String: StudioValue] {
        [
            "kind": .string(kind.rawValue),
            "title": .string(kind.title),
            "instructions": .string(Self.instructions[kind] ?? ""),
            "running": .bool(model != nil),
            "home": .bool(homeShown),
            "inactivityTimeout": .number(inactivityTimeout),
            "exports": .array([.string("ahap"), .string("android")]),
        ]
    }

    public func apply(set path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        throw .unknownControl(path)
    }

    public func apply(action path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue] {
        let time = currentTime
        switch path {
        case "\(Self.id).start":
            switch value {
            case .null: break
            case .number(let r):
                guard r.isFinite, (0.1...10).contains(r) else { throw .badValue(path, expected: "the play area's width ÷ height, 0.1…10") }
                aspectRatio = r
            default: throw .badValue(path, expected: "the play area's width ÷ height, or null")
            }
            return start(at: time)
        case "\(Self.id).leave":
            guard player.isRunning else { return [:] }
            var changes = apply(player.leave(at: time), at: time)
            mixer.reset()
            changes["running"] = .bool(false)
            return changes
        case "\(Self.id).export":
            guard case .string(let format) = value, let export = exportFile(format) else {
                throw .badValue(path, expected: "\"ahap\" or \"android\"")
            }
            return ["export": export]
        default:
            throw .unknownControl(path)
        }
    }

    public func touch(_ touch: StudioTouch, client: String) throws(StudioError) -> [String: StudioValue] {
        let arrival = monotonic()
        let time = audioTime(now: arrival)
        let due = frameClock?.dueFrame(forArrival: arrival)
        var changes: [String: StudioValue] = [:]
        if model == nil {
            // A finger on a page that was not started (or left) starts the game.
            guard touch.phase == .down else { return [:] }
            changes = start(at: time, due: due)
        }
        let key = "\(client)#\(touch.id)"
        let frame: TrackingFrame
        switch touch.phase {
        case .down, .move:
            let slot: Int
            if let s = slots[key] { slot = s } else {
                guard touch.phase == .down, let free = StudioTouch.slots.first(where: { !slots.values.contains($0) }) else { return changes }
                slot = free
                slots[key] = slot
            }
            frame = .touch(TouchFrame(slot: slot, timestamp: time, x: Float(touch.x), y: Float(touch.y), pressure: Float(touch.pressure)))
        case .up, .cancel:
            guard let slot = slots.removeValue(forKey: key) else { return changes }
            frame = .ended(.touch(slot), timestamp: time)
        }
        inputLog.append(frame)
        if inputLog.count > Self.maximumInputLog { inputLog.removeFirst(inputLog.count - Self.maximumInputLog) }
        guard player.isRunning else { return changes }
        changes.merge(apply(player.handle(frame), at: time, due: due)) { $1 }
        return changes
    }

    /// Moves the model's time on; returns the changes (the home button).
    func tick(now: Double) -> [String: StudioValue] {
        let time = audioTime(now: now)
        guard player.isRunning else { return [:] }
        return apply(player.advance(to: time, musicPosition: musicPosition(at: time)), at: time)
    }

    /// Ticks, keeping what changed for ``takeChanges()``.
    func tickKeepingChanges(now: Double) {
        let changes = tick(now: now)
        guard !changes.isEmpty else { return }
        unsent.append(changes)
        if unsent.count > Self.maximumUnsent { unsent.removeFirst(unsent.count - Self.maximumUnsent) }
    }

    public func takeChanges() -> [[String: StudioValue]] {
        defer { unsent.removeAll(keepingCapacity: true) }
        return unsent
    }

    public func frameJSON(now: Double) -> [String: StudioValue]? {
        tickKeepingChanges(now: now)
        let running = model != nil
        defer { lastFrameRunning = running }
        guard running || lastFrameRunning else { return nil }
        let time = clock.last
        var frame: [String: StudioValue] = [
            "t": .number(Self.rounded(time)),
            "running": .bool(running),
            "home": .bool(homeShown),
            "music": .number(Self.rounded(musicPosition(at: time))),
            "rendering": .bool(clock.rendering),
        ]
        if let m = model { frame.merge(gameFrame(m, at: time)) { $1 } }
        return frame
    }

    /// The game's own frame members; subclasses override.
    func gameFrame(_ model: any GameModel, at time: Double) -> [String: StudioValue] { [:] }

    public func advance(to time: Double) { tickKeepingChanges(now: time) }

    public func silence(at time: Double) {
        let t = audioTime(now: time)
        _ = apply(player.leave(at: t), at: t)
        unsent.removeAll()
        mixer.reset()
        slots.removeAll()
        output.host.send(.masterLevel(0, ramp: 0.05))
    }

    // MARK: Export

    /// The haptic track since the start as a pattern (times from the start).
    public func trackPattern() -> HapticPattern {
        let events = track.map { e -> HapticEvent in
            var shifted = e
            shifted.time = max(0, e.time - startedAt)
            return shifted
        }
        return HapticPattern(events: events, metadata: [("Project", "Prospero"), ("Description", "\(kind.title), studio session")])
    }

    /// `{format, name, text, events}` for `ahap` or `android`; nil for another format.
    func exportFile(_ format: String) -> StudioValue? {
        let pattern = trackPattern()
        let text: String
        let name: String
        switch format {
        case "ahap":
            text = pattern.ahapJSON()
            name = "prospero-\(kind.rawValue).ahap"
        case "android":
            text = AndroidWaveform(pattern).json()
            name = "prospero-\(kind.rawValue)-android.json"
        default:
            return nil
        }
        return .object(["format": .string(format), "name": .string(name), "text": .string(text),
                        "events": .number(Double(pattern.events.count))])
    }

    // MARK: JSON

    static func json(_ burst: GameHapticBurst) -> StudioValue {
        .object([
            "serial": .number(Double(burst.serial)),
            "time": .number(burst.time),
            "pattern": .array(burst.pattern.map { .number(Double($0)) }),
            "peak": .number(rounded(burst.peak)),
            "events": .array(burst.events.map { e in
                .object(["t": .number(rounded(e.time)), "d": .number(rounded(GameHapticMixer.length(of: e))),
                         "i": .number(rounded(e.intensity)), "s": .number(rounded(e.sharpness)),
                         "kind": .string(e.type == .hapticTransient ? "tap" : "buzz")])
            }),
        ])
    }

    /// Four decimals: enough for positions and times on a page, and the JSON stays small.
    static func rounded(_ v: Double) -> Double { v.isFinite ? (v * 10_000).rounded() / 10_000 : 0 }
}
