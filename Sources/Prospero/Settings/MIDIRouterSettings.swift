import Horatio

/// Everything that decides how hands and touches become MIDI. Codable (a settings file or a
/// UI's state); `validate()` names the first field that is out of range.
///
/// | Field | Meaning | Range, default |
/// |---|---|---|
/// | `key`, `scale` | the notes the zones offer | C major pentatonic |
/// | `lowestNote`, `highestNote` | MIDI note range; the zones are the scale's notes inside it | 0…127, 48…72 |
/// | `channels` | one channel for all, one per slot, or MPE | `.shared(1)` |
/// | `hysteresis` | how far past a fret a hand must go to change zone, fraction of a zone | 0…0.5, 0.25 |
/// | `horizontalController` | CC for x (left 0 … right 127); nil = none | 0…119, 74 |
/// | `expressionController` | CC for hand openness (extended fingers ÷ 5; touch pressure) | 0…119, 11 |
/// | `depthController` | CC for depth (palm size or pinch; touch pressure) | 0…119, nil |
/// | `bendWithinZone` | continuous 14-bit pitch bend inside a zone | false (always on in MPE) |
/// | `bendRange` | pitch-bend range in semitones the receiver is set to (RPN 0) | 1…96, 2 (48 in MPE) |
/// | `velocity` | where note-on velocity comes from | `.fingerCount` |
/// | `minimumVelocity`, `maximumVelocity` | velocity range the source is mapped onto | 1…127, 40…127 |
/// | `controllerRateLimit` | most messages per second per controller (and per bend) | 10…1000, 150 |
public struct MIDIRouterSettings: Sendable, Hashable, Codable {
    public var key: MusicalKey
    public var scale: Scale
    public var lowestNote: Int
    public var highestNote: Int
    public var channels: ChannelAssignment
    public var hysteresis: Double
    public var horizontalController: Int?
    public var expressionController: Int?
    public var depthController: Int?
    public var depthSource: DepthSource
    public var bendWithinZone: Bool
    public var bendRange: Int
    public var velocity: VelocitySource
    public var minimumVelocity: Int
    public var maximumVelocity: Int
    public var controllerRateLimit: Double

    public init(
        key: MusicalKey = .c, scale: Scale = .majorPentatonic, lowestNote: Int = 48, highestNote: Int = 72,
        channels: ChannelAssignment = .shared(channel: 1), hysteresis: Double = 0.25,
        horizontalController: Int? = 74, expressionController: Int? = 11, depthController: Int? = nil,
        depthSource: DepthSource = .palmSize, bendWithinZone: Bool = false, bendRange: Int? = nil,
        velocity: VelocitySource = .fingerCount, minimumVelocity: Int = 40, maximumVelocity: Int = 127,
        controllerRateLimit: Double = 150
    ) {
        self.key = key
        self.scale = scale
        self.lowestNote = lowestNote
        self.highestNote = highestNote
        self.channels = channels
        self.hysteresis = hysteresis
        self.horizontalController = horizontalController
        self.expressionController = expressionController
        self.depthController = depthController
        self.depthSource = depthSource
        self.bendWithinZone = bendWithinZone
        if case .mpe = channels { self.bendRange = bendRange ?? 48 } else { self.bendRange = bendRange ?? 2 }
        self.velocity = velocity
        self.minimumVelocity = minimumVelocity
        self.maximumVelocity = maximumVelocity
        self.controllerRateLimit = controllerRateLimit
    }

    /// How sources map to MIDI channels (numbers 1…16 as musicians count them).
    public enum ChannelAssignment: Sendable, Hashable, Codable {
        /// Every hand and touch on one channel.
        case shared(channel: Int)
        /// Hand slot i and touch slot i on `channels[i]` (four channels).
        case perSlot(channels: [Int])
        /// MPE lower zone: manager channel 1, each source on its own member channel 2…(1 + members).
        case mpe(memberChannels: Int)

        public var isMPE: Bool { if case .mpe = self { return true } else { return false } }
    }

    /// What the depth controller (and MPE channel pressure) follows for hands.
    public enum DepthSource: String, Sendable, Hashable, Codable, CaseIterable {
        /// Apparent palm size (wrist to middle MCP): a hand nearer the camera is deeper. 0.05 → 0, 0.35 → 1.
        case palmSize
        /// Thumb–index closeness: 0 with the fingertips a palm apart or more, 1 touching.
        case pinch
    }

    /// Where note-on velocity comes from; mapped onto `minimumVelocity…maximumVelocity`.
    public enum VelocitySource: Sendable, Hashable, Codable {
        /// Always this velocity (1…127).
        case fixed(Int)
        /// Extended fingers ÷ 5 for hands; pressure for touches.
        case fingerCount
        /// Vertical speed when the note starts: 0 → minimum, `fullScale` screen heights per second or faster → maximum.
        case verticalSpeed(fullScale: Double)
        /// The depth value (palm size or pinch; pressure for touches).
        case depth
    }

    /// The first field out of range, as a typed error naming it.
    public func validate() throws(MIDIRouterSettingsError) {
        guard (0...127).contains(lowestNote) else { throw .init(field: "lowestNote", "must be 0…127, not \(lowestNote)") }
        guard (0...127).contains(highestNote) else { throw .init(field: "highestNote", "must be 0…127, not \(highestNote)") }
        guard lowestNote <= highestNote else {
            throw .init(field: "highestNote", "must not be below lowestNote (\(lowestNote)), is \(highestNote)")
        }
        guard !ScaleQuantizer(key: key, scale: scale).notes(in: lowestNote...highestNote).isEmpty else {
            throw .init(field: "lowestNote", "no note of \(key) \(scale.displayName) lies in \(lowestNote)…\(highestNote)")
        }
        switch channels {
        case .shared(let c):
            guard (1...16).contains(c) else { throw .init(field: "channels", "channel must be 1…16, not \(c)") }
        case .perSlot(let cs):
            guard cs.count == 4 else { throw .init(field: "channels", "per-slot needs 4 channels, got \(cs.count)") }
            for c in cs where !(1...16).contains(c) { throw .init(field: "channels", "channel must be 1…16, not \(c)") }
        case .mpe(let n):
            guard (1...15).contains(n) else { throw .init(field: "channels", "MPE member channels must be 1…15, not \(n)") }
        }
        guard hysteresis.isFinite, (0...0.5).contains(hysteresis) else {
            throw .init(field: "hysteresis", "must be 0…0.5 of a zone, not \(hysteresis)")
        }
        for (name, cc) in [("horizontalController", horizontalController), ("expressionController", expressionController),
                           ("depthController", depthController)] {
            if let cc, !(0...119).contains(cc) {
                throw .init(field: name, "must be a controller 0…119 (120…127 are channel mode messages), not \(cc)")
            }
        }
        guard (1...96).contains(bendRange) else { throw .init(field: "bendRange", "must be 1…96 semitones, not \(bendRange)") }
        switch velocity {
        case .fixed(let v):
            guard (1...127).contains(v) else { throw .init(field: "velocity", "a fixed velocity must be 1…127, not \(v)") }
        case .verticalSpeed(let s):
            guard s.isFinite, s > 0 else { throw .init(field: "velocity", "full-scale speed must be positive, not \(s)") }
        case .fingerCount, .depth:
            break
        }
        guard (1...127).contains(minimumVelocity) else {
            throw .init(field: "minimumVelocity", "must be 1…127, not \(minimumVelocity)")
        }
        guard (minimumVelocity...127).contains(maximumVelocity) else {
            throw .init(field: "maximumVelocity", "must be minimumVelocity…127, not \(maximumVelocity)")
        }
        guard controllerRateLimit.isFinite, (10...1000).contains(controllerRateLimit) else {
            throw .init(field: "controllerRateLimit", "must be 10…1000 messages per second, not \(controllerRateLimit)")
        }
    }
}
