/// A spelled note without an octave: a letter and an accidental, such as E♭ or F♯.
///
/// Two names can sound the same (D♯ and E♭); `pitchClass` says which of the twelve they are.
public struct NoteName: Sendable, Hashable, Codable, CustomStringConvertible {
    public var letter: Letter
    public var accidental: Accidental

    public init(_ letter: Letter, _ accidental: Accidental = .natural) {
        self.letter = letter
        self.accidental = accidental
    }

    /// The pitch class this name sounds as (C♭ is B, B♯ is C).
    @inlinable
    public var pitchClass: PitchClass { PitchClass(letter.semitonesAboveC + accidental.semitones) }

    /// Semitones between the written letter's octave and the sounding pitch class:
    /// −1 for C♭/C𝄫 (they sound in the octave below), +1 for B♯/B𝄪, else 0.
    @inlinable
    public var octaveCarry: Int {
        let raw = letter.semitonesAboveC + accidental.semitones
        return raw < 0 ? -1 : (raw >= 12 ? 1 : 0)
    }

    /// ASCII spelling such as "Eb" or "F#".
    public var description: String { "\(letter)\(accidental)" }
}
