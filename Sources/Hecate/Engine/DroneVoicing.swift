import Foundation
import Horatio

/// Where Hecate's voices sit, as MIDI note numbers (C4 = 60), for one key and chord.
///
/// - The key root sits in G2…F♯3 (MIDI 43…54), so every key's chords share one register.
/// - Chord tones stack on the chord root placed at or above the key root (root, third, fifth,
///   seventh, ninth and octave from `Chord.interval(of:)`).
/// - The sub-bass is the chord root one octave down.
/// - The bass voice takes the octave of the chord root that lands in the sweet spot
///   55…110 Hz (MIDI 33…44, A1…G♯2): low enough to carry, high enough for small speakers.
/// - The drone is pinned to the key root (not the chord root) and its fifth, one octave under
///   the key root, so the pedal stays put while chords move above it.
public struct DroneVoicing: Sendable, Hashable {
    /// MIDI notes of root, third, fifth, seventh, ninth, octave (`ChordTone.allCases` order).
    public var tones: [Int]
    public var sub: Int
    public var bass: Int
    public var droneRoot: Int
    public var droneFifth: Int

    /// The bass sweet spot, in Hz.
    public static let bassSweetSpot: Range<Double> = 55..<110
    /// Lowest MIDI note in the bass sweet spot (A1, 55 Hz); the spot spans 12 semitones from it.
    public static let bassSweetSpotLowestNote = 33

    public init(key: MusicalKey, degree: NashvilleDegree) {
        let keyRoot = Self.keyRootNote(key)
        let chord = degree.chord(in: key)
        let offset = ((chord.root.rawValue - key.tonic.rawValue) % 12 + 12) % 12
        let chordRoot = keyRoot + offset
        tones = ChordTone.allCases.map { chordRoot + chord.interval(of: $0).semitones }
        sub = chordRoot - 12
        bass = Self.bassNote(pitchClass: chord.root.rawValue)
        droneRoot = keyRoot - 12
        droneFifth = keyRoot - 12 + 7
    }

    /// The key root's MIDI note, G2…F♯3.
    public static func keyRootNote(_ key: MusicalKey) -> Int {
        let tonic = key.tonic.rawValue
        return tonic <= 6 ? 48 + tonic : 36 + tonic
    }

    /// The MIDI note of `pitchClass` (0 = C) in the bass sweet spot 55…110 Hz.
    public static func bassNote(pitchClass: Int) -> Int {
        let low = bassSweetSpotLowestNote
        let pc = ((pitchClass % 12) + 12) % 12
        return low + ((pc - low % 12) + 12) % 12
    }

    /// Frequency in Hz of a MIDI note (A4 = 440 Hz).
    public static func frequency(_ note: Int) -> Double {
        440 * pow(2, (Double(note) - 69) / 12)
    }
}
