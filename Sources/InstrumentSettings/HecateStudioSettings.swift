import Hecate
import Horatio
import Touchstone

/// Everything a player sets on Hecate's screen, with the ranges the controls accept. The one place
/// these ranges live for the studio: validation reads them and the page receives them in the state.
public struct HecateStudioSettings: Sendable, Hashable {
    public var key: MusicalKey = .c
    public var chord: NashvilleDegree = .one
    public var packID: String = SoundPack.cathedral.id
    public var arpeggiator = false
    public var arpDivision = "1/8"
    /// "off" or a `TremoloShape` name.
    public var tremolo = "off"
    public var tremoloDivision = "1/8"
    public var tremoloDepth = 0.5
    public var bpm = 90.0
    public var playAlong = false
    public var route: OutputRoute = .wired
    /// Bass voice, drone and reverb wet levels, 0…1 (the pack's until moved; a pack change resets them).
    public var bassLevel: Double
    public var droneLevel: Double
    public var reverb: Double
    public var muted = false

    public init(pack: SoundPack = .cathedral) {
        packID = pack.id
        bassLevel = pack.preset.bassLevel
        droneLevel = pack.preset.droneLevel
        reverb = pack.preset.reverbMix
    }

    /// Key names as the page offers them (ASCII, flats as the keys are spelled).
    public static let keyNames = ["C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]
    public static let divisions = ["1/4", "1/8", "1/16", "1/4T", "1/8T", "1/16T", "1/4.", "1/8.", "1/16."]
    public static let tremoloShapes = ["off"] + TremoloShape.allCases.map(\.rawValue)
    /// The engine's tempo range (`DroneSynthEngine.Command.bpm`).
    public static let bpmRange: ClosedRange<Double> = 20...300
    public static let unitRange: ClosedRange<Double> = 0...1

    public var keyName: String { Self.keyNames[key.rawValue] }

    /// "1/8T" → an eighth triplet; nil for anything not in `divisions`.
    public static func division(_ text: String) -> NoteDivision? {
        guard divisions.contains(text) else { return nil }
        var body = Substring(text)
        var modifier = NoteDivision.Modifier.straight
        if body.hasSuffix("T") { modifier = .triplet; body = body.dropLast() }
        else if body.hasSuffix(".") { modifier = .dotted; body = body.dropLast() }
        guard let d = Int(body.dropFirst(2)) else { return nil }
        return NoteDivision(denominator: d, modifier: modifier)
    }

    /// The tremolo command these settings make (depth 0 when off).
    public var tremoloCommand: DroneSynthEngine.Command {
        let shape = TremoloShape(rawValue: tremolo) ?? .sine
        let depth = tremolo == "off" ? 0 : Float(tremoloDepth)
        return .tremolo(shape: shape, division: Self.division(tremoloDivision) ?? .eighth, depth: depth)
    }

    /// `pack`'s voice with the player's bass, drone and reverb levels.
    public func preset(of pack: SoundPack) -> VoicePreset {
        var p = pack.preset
        p.bassLevel = bassLevel
        p.droneLevel = droneLevel
        p.reverbMix = reverb
        return p
    }

    /// The limiter ceiling these settings give, in dBFS.
    public var limiterCeiling: Double { route.limiterCeiling(playAlong: playAlong) }
}
