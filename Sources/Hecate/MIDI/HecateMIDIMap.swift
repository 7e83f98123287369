/// How Hecate plays what it sounds as MIDI (`prospero hecate --midi`, the studio's Hecate with
/// `--hecate-midi`): the one place the map lives, read by the engine, the docs' table and the tests.
///
/// **Notes.** Each of the six chord tones (root, third, fifth, seventh, ninth, octave at their
/// `DroneVoicing` pitches) and the bass voice is a note on the chosen channel. A voice's level is
/// what the engine plays: its smoothed level × the arpeggiator's gate × the face fade (for the bass,
/// the face's bass level × the fade). Crossing ``noteOnLevel`` upwards sends a note-on, whose velocity
/// is the level the face asks for (the tone's target, 0…1 → 1…127); falling below ``noteOffLevel``
/// sends its note-off (the gap between the two keeps a level near a threshold from chattering). A chord
/// or key change ends each sounding note whose pitch moves and starts the new one at once; a common
/// pitch holds. With the arpeggiator on, each step's gate is its own note. The drone and the sub-bass
/// (pedal and doubling under the voicing, not voiced by the face) are not sent.
///
/// **Pressure.** While a note sounds, the face's level for it goes out as polyphonic key pressure
/// (A0, on the same curve as the velocity) when its 7-bit value changes, at most once per
/// ``controllerInterval``: a face that opens slowly starts its tone softly and swells it by pressure.
///
/// **Controllers.** The sculpting, thinned the same way (a controller is sent when its 7-bit value
/// changes, at most once per ``controllerInterval``; all of them when MIDI out starts and whenever a
/// face is found, so a receiver connected later is set before the face plays): see
/// ``controllers``. Turning MIDI out off sends a note-off for every sounding note and All Notes Off
/// (CC 123).
public enum HecateMIDIMap {
    /// A voice's level at or above which it sounds as a note (0…1).
    public static let noteOnLevel: Float = 0.10
    /// A sounding note's level below which it ends (0…1, below ``noteOnLevel``: hysteresis).
    public static let noteOffLevel: Float = 0.05
    /// The shortest time between two messages of one controller (or one note's pressure), seconds.
    public static let controllerInterval = 0.010

    /// One controller of the map.
    public struct Controller: Sendable, Hashable {
        /// The MIDI controller number.
        public var number: UInt8
        /// What it carries, for the docs.
        public var name: String
        /// What moves it by default.
        public var movedBy: String
    }

    /// Controller numbers, in the engine's order (lanes of its controller vector).
    public static let cutoff: UInt8 = 74
    public static let resonance: UInt8 = 71
    public static let formantF1: UInt8 = 75
    public static let formantF2: UInt8 = 76
    public static let brightness: UInt8 = 77
    public static let expression: UInt8 = 11
    public static let reverb: UInt8 = 91
    public static let tremoloDepth: UInt8 = 92

    /// The map: each controller carries a 0…1 amount of the engine as 0…127.
    public static let controllers: [Controller] = [
        Controller(number: cutoff, name: "filter cutoff (sculpt amount, 0 closed … 1 open)", movedBy: "head turn (yaw)"),
        Controller(number: resonance, name: "filter resonance", movedBy: "head tilt (roll)"),
        Controller(number: formantF1, name: "formant F1, vowel openness", movedBy: "jaw open"),
        Controller(number: formantF2, name: "formant F2, vowel shape", movedBy: "nod (pitch) and smile"),
        Controller(number: brightness, name: "brightness, the octave shimmer", movedBy: "smile"),
        Controller(number: expression, name: "expression: the face fade (0 face lost … 1 in view)", movedBy: "the face entering and leaving"),
        Controller(number: reverb, name: "reverb wet mix", movedBy: "the pack and the reverb setting"),
        Controller(number: tremoloDepth, name: "tremolo depth (0 when off)", movedBy: "the tremolo setting"),
    ]

    /// The voices sent as notes, in the engine's lane order.
    public static let voices = ["root", "third", "fifth", "seventh", "ninth", "octave", "bass"]

    /// A level 0…1 (linear amplitude) as a velocity 1…127: 127·√level, so a synth on the General MIDI
    /// velocity curve (amplitude ∝ (velocity / 127)², 40·log₁₀ dB) plays the tone as loud as Hecate does.
    @inline(__always)
    public static func velocity(_ level: Float) -> UInt8 {
        max(pressure(level), 1)
    }

    /// A level 0…1 as polyphonic key pressure 0…127, on the velocity's curve.
    @inline(__always)
    public static func pressure(_ level: Float) -> UInt8 {
        guard level.isFinite, level > 0 else { return 0 }
        return UInt8(min((min(level, 1).squareRoot() * 127).rounded(), 127))
    }

    /// An amount 0…1 as a 7-bit value 0…127.
    @inline(__always)
    public static func value(_ amount: Float) -> UInt8 {
        guard amount.isFinite else { return 0 }
        return UInt8(min(max((amount * 127).rounded(), 0), 127))
    }
}
