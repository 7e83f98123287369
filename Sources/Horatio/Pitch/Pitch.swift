/// A pitch as a MIDI note number, 0…127.
///
/// Octaves follow scientific pitch notation as most DAWs show it: middle C is C4 = 60,
/// A4 = 69, the lowest note C-1 = 0, the highest G9 = 127. An octave number changes at C,
/// so B3 = 59 sits just below C4, and C♭4 = 59, B♯3 = 60.
///
///     let a = Pitch(parsing: "A4")    // 69
///     a.frequency()                   // 440.0 Hz
///     Pitch(60)!.name(spelling: .flats)  // "C4"
public struct Pitch: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The MIDI note number, 0…127.
    public let midiNoteNumber: Int

    public static let validRange: ClosedRange<Int> = 0...127
    /// C4, MIDI note 60.
    public static let middleC = Pitch(unchecked: 60)
    /// A4, MIDI note 69, the usual tuning reference.
    public static let a4 = Pitch(unchecked: 69)

    /// A pitch for a MIDI note number, or nil outside 0…127 (values are never clamped silently).
    @inlinable
    public init?(_ midiNoteNumber: Int) {
        guard Self.validRange.contains(midiNoteNumber) else { return nil }
        self.midiNoteNumber = midiNoteNumber
    }

    @usableFromInline
    init(unchecked midiNoteNumber: Int) { self.midiNoteNumber = midiNoteNumber }

    /// The note of `name` in `octave` (C4 = 60), or nil when that falls outside 0…127.
    public init?(_ name: NoteName, octave: Int) {
        self.init((octave + 1) * 12 + name.letter.semitonesAboveC + name.accidental.semitones)
    }

    /// The pitch class, 0 = C … 11 = B.
    @inlinable
    public var pitchClass: PitchClass { PitchClass(midiNoteNumber) }

    /// The octave number of the sounding pitch with its simplest spelling (C4 = 60, so 59 is in octave 3).
    @inlinable
    public var octave: Int { midiNoteNumber / 12 - 1 }

    /// The frequency in Hz in twelve-tone equal temperament.
    /// - Parameter a4: the frequency of A4 (MIDI 69) in Hz, typically 415…466; 440 by default.
    public func frequency(a4: Double = 440) -> Double {
        a4 * pow2(Double(midiNoteNumber - 69) / 12)
    }

    /// The nearest pitch to `frequency` (Hz) given the A4 reference, or nil when it is outside 0…127.
    /// Exactly halfway between two notes rounds up.
    public init?(nearestTo frequency: Double, a4: Double = 440) {
        guard frequency > 0, frequency.isFinite, a4 > 0, a4.isFinite else { return nil }
        let note = 69 + 12 * log2Positive(frequency / a4)
        self.init(Int((note + 0.5).rounded(.down)))
    }

    /// The pitch `interval` away, or nil when that leaves 0…127.
    @inlinable
    public func transposed(by interval: Interval) -> Pitch? { Pitch(midiNoteNumber + interval.semitones) }

    /// The signed distance from `other` up to this pitch.
    @inlinable
    public func interval(from other: Pitch) -> Interval { Interval(semitones: midiNoteNumber - other.midiNoteNumber) }

    /// The name with an octave, such as "C#4" or "Db4", spelled with sharps or flats.
    public func name(spelling: NoteSpelling = .sharps) -> String {
        name(as: pitchClass.name(spelling: spelling))
    }

    /// The name with an octave using a given spelling of this pitch's class, such as "B#3" for 60.
    /// The octave number follows the letter, so C♭5 is 71 and B♯3 is 60.
    public func name(as spelled: NoteName) -> String {
        precondition(spelled.pitchClass == pitchClass, "\(spelled) does not spell pitch \(midiNoteNumber)")
        let writtenOctave = octave - spelled.octaveCarry
        return "\(spelled)\(writtenOctave)"
    }

    public var description: String { name() }

    public static func < (lhs: Pitch, rhs: Pitch) -> Bool { lhs.midiNoteNumber < rhs.midiNoteNumber }
}
