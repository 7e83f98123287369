import Ariel
import Horatio
import Prospero

/// Everything the hands screen sets: the router's notes and channels, the output, and the built-in
/// synth's panel. One value, so that the page's state, a saved file and the CLI agree.
///
/// | Path (below `hands.`) | Value | Range, default |
/// |---|---|---|
/// | `key` | C, Db, D … B | C |
/// | `scale` | a `Scale` raw value | majorPentatonic |
/// | `low`, `high` | MIDI note number or name (C4 = 60) | 0…127, 48 (C3) … 72 (C5) |
/// | `channelMode` | single, perHand, mpe | single |
/// | `channel` | 1…16 (perHand: sets the four from this one, 1…13) | 1 |
/// | `channels` | perHand: the four slots' channels, "1,2,3,4" (hand and touch i share; any of 1…16, as `--per-hand-channels`) | 1,2,3,4 |
/// | `bend` | continuous pitch bend inside a zone (always on in MPE) | false |
/// | `bendRange` | semitones, sent to the receiver and set on the synth alike | 1…24, 2 |
/// | `output` | midi, synth, both | synth |
/// | `velocity` | the velocity dial: the note-on velocity of a touch that measured no force (see ``HandsStudioController``) | the router's velocity range (40…127), 84 |
/// | `mod` | the mod dial: CC 1 (mod wheel) on the hands' channels at `midi_out`; the built-in synth's LFO depth × 127 (not a field: `synth.lfoDepth` keeps it) | 0…127 |
/// | `synth.*` | the synth panel, see ``HandsSynthControl`` | `PolySynthSettings()` |
public struct HandsStudioSettings: Sendable, Hashable, Codable {
    public var key: MusicalKey = .c
    public var scale: Scale = .majorPentatonic
    public var lowestNote = 48
    public var highestNote = 72
    public var channelMode: HandsChannelMode = .single
    public var channel = 1
    /// The channels of slots 0…3 in `perHand` mode (each 1…16).
    public var handChannels = [1, 2, 3, 4]
    public var bend = false
    /// Semitones each way, 1…24 (the synth's limit, so a receiver and the synth bend alike).
    public var bendRange = 2
    public var output: HandsOutput = .synth
    /// The velocity dial: the velocity a touch plays when it measured no force (no pressure, no contact size,
    /// no approach speed), within the router's velocity range. 84 is what such a touch played before the dial turned.
    public var velocity = 84
    public var synth = PolySynthSettings()

    public init() {}

    /// The router's settings (validated by the router).
    public var routerSettings: MIDIRouterSettings {
        let channels: MIDIRouterSettings.ChannelAssignment
        switch channelMode {
        case .single: channels = .shared(channel: channel)
        case .perHand: channels = .perSlot(channels: handChannels)
        case .mpe: channels = .mpe(memberChannels: 15)
        }
        return MIDIRouterSettings(key: key, scale: scale, lowestNote: lowestNote, highestNote: highestNote,
                                  channels: channels, bendWithinZone: bend, bendRange: bendRange)
    }

    /// The synth's settings, with the bend range the router announces.
    public var synthSettings: PolySynthSettings {
        var s = synth
        s.pitchBendRange = Double(bendRange)
        return s
    }

    /// The first setting out of range.
    public func validate() throws(HandsStudioSettingsError) {
        guard (1...24).contains(bendRange) else { throw .init(path: "bendRange", "must be 1…24 semitones, not \(bendRange)") }
        let velocities = routerSettings.minimumVelocity...routerSettings.maximumVelocity
        guard velocities.contains(velocity) else {
            throw .init(path: "velocity", "must be \(velocities.lowerBound)…\(velocities.upperBound), not \(velocity)")
        }
        switch channelMode {
        case .single, .mpe:
            guard (1...16).contains(channel) else { throw .init(path: "channel", "must be 1…16, not \(channel)") }
        case .perHand:
            guard handChannels.count == 4, handChannels.allSatisfy({ (1...16).contains($0) }) else {
                throw .init(path: "channels", "must be four channels 1…16, one per slot, not \(handChannels)")
            }
        }
        do { try routerSettings.validate() } catch {
            let path = ["lowestNote": "low", "highestNote": "high"][error.field] ?? error.field
            throw .init(path: path, "\(error)")
        }
        do { try synthSettings.validate() } catch { throw .init(path: "synth", "\(error)") }
    }

    /// The paths of the router's settings (the rest are `synth.<control>`).
    public static let paths = ["key", "scale", "low", "high", "channelMode", "channel", "channels", "bend", "bendRange", "output",
                               "velocity"]

    /// The mod dial's path: a view of `synth.lfoDepth` (CC 1 is the synth's depth control), so it is not saved twice.
    public static let modPath = "mod"
    /// The mod dial's range: a 7-bit controller value.
    public static let modRange = 0...127

    /// The mod dial: the synth's LFO depth as the CC 1 value that sets it (0…127).
    public var mod: Int { Int((min(max(synth.lfoDepth, 0), 1) * 127).rounded()) }

    /// The velocity dial's range: the router's velocity range (the velocities notes can have).
    public var velocityRange: ClosedRange<Int> { routerSettings.minimumVelocity...routerSettings.maximumVelocity }

    /// The value at `path` (see the table), nil for an unknown path.
    public func value(at path: String) -> HandsSettingValue? {
        switch path {
        case "key": return .text(key.description)
        case "scale": return .text(scale.rawValue)
        case "low": return .number(Double(lowestNote))
        case "high": return .number(Double(highestNote))
        case "channelMode": return .text(channelMode.rawValue)
        case "channel": return .number(Double(channel))
        case "channels": return .text(handChannels.map(String.init).joined(separator: ","))
        case "bend": return .flag(bend)
        case "bendRange": return .number(Double(bendRange))
        case "output": return .text(output.rawValue)
        case "velocity": return .number(Double(velocity))
        case Self.modPath: return .number(Double(mod))
        default:
            guard path.hasPrefix("synth."), let control = HandsSynthControl.named(String(path.dropFirst(6))) else { return nil }
            return control.value(in: synth)
        }
    }

    /// Sets one router or output setting (not `synth.*`: see ``HandsSynthControl``). The result is
    /// validated as a whole, so a range that would hold no scale note is refused and nothing changes.
    public mutating func set(_ path: String, to value: HandsSettingValue) throws(HandsStudioSettingsError) {
        var next = self
        switch (path, value) {
        case ("key", .text(let text)):
            guard let k = MusicalKey(text) else { throw .init(path: path, "unknown key '\(text)'; C, Db, D, Eb, E, F, F#, G, Ab, A, Bb or B") }
            next.key = k
        case ("scale", .text(let text)):
            guard let s = Scale(rawValue: text) else {
                throw .init(path: path, "unknown scale '\(text)'; one of \(Scale.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            next.scale = s
        case ("low", _): next.lowestNote = try Self.note(value, path)
        case ("high", _): next.highestNote = try Self.note(value, path)
        case ("channelMode", .text(let text)):
            guard let m = HandsChannelMode(rawValue: text) else { throw .init(path: path, "must be single, perHand or mpe, not '\(text)'") }
            next.channelMode = m
        case ("channel", .number(let n)):
            next.channel = try Self.integer(n, path)
            if next.channelMode == .perHand {
                // Four channels from this one: the shortcut the screen's number gives.
                guard (1...13).contains(next.channel) else {
                    throw .init(path: path, "per hand takes four channels from this one, so it must be 1…13, not \(next.channel)")
                }
                next.handChannels = (0..<4).map { next.channel + $0 }
            }
        case ("channels", .text(let text)):
            let list = text.split(separator: ",", omittingEmptySubsequences: false).map { Int(String($0.filter { $0 != " " })) }
            guard list.count == 4, list.allSatisfy({ $0.map { (1...16).contains($0) } ?? false }) else {
                throw .init(path: path, "must be four channels 1…16 separated by commas, e.g. 1,2,3,4, not '\(text.prefix(64))'")
            }
            next.handChannels = list.map { $0! }
            // Per hand, the screen's number is the first hand's channel. In one-channel (and MPE) mode `channel` is
            // that mode's own and stays: the settings file lists the four channels in every mode, and reading them
            // moved a saved channel 3 to 1 (found by the `settings` fuzz target's round trip).
            if next.channelMode == .perHand { next.channel = next.handChannels[0] }
        case ("bend", .flag(let on)): next.bend = on
        case ("bendRange", .number(let n)): next.bendRange = try Self.integer(n, path)
        case ("output", .text(let text)):
            guard let o = HandsOutput(rawValue: text) else { throw .init(path: path, "must be midi, synth or both, not '\(text)'") }
            next.output = o
        case ("velocity", .number(let n)): next.velocity = try Self.integer(n, path)
        case (Self.modPath, .number(let n)):
            let v = try Self.integer(n, path)
            guard Self.modRange.contains(v) else { throw .init(path: path, "must be 0…127, not \(v)") }
            next.synth.lfoDepth = Double(v) / 127
        case ("key", _), ("scale", _), ("channelMode", _), ("output", _): throw .init(path: path, "must be a name")
        case ("channels", _): throw .init(path: path, "must be four channels separated by commas, e.g. 1,2,3,4")
        case ("channel", _), ("bendRange", _), ("velocity", _), (Self.modPath, _): throw .init(path: path, "must be a number")
        case ("bend", _): throw .init(path: path, "must be true or false")
        default: throw .init(path: path, "no such setting", isUnknownSetting: true)
        }
        try next.validate()
        self = next
    }

    private static func integer(_ n: Double, _ path: String) throws(HandsStudioSettingsError) -> Int {
        guard n.isFinite, n == n.rounded(), abs(n) < 1_000_000 else { throw .init(path: path, "must be a whole number, not \(n)") }
        return Int(n)
    }

    private static func note(_ value: HandsSettingValue, _ path: String) throws(HandsStudioSettingsError) -> Int {
        switch value {
        case .number(let n): return try integer(n, path)
        case .text(let text):
            if let n = Int(text) { return n }
            guard let pitch = try? Pitch(parsing: text) else { throw .init(path: path, "'\(text)' is not a note (e.g. 60 or C4)") }
            return pitch.midiNoteNumber
        case .flag: throw .init(path: path, "must be a note number or name")
        }
    }
}
