/// Why a text is not a note name.
public enum PitchParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case unknownLetter(Character)
    case invalidAccidental(String)
    case missingOctave(String)
    case invalidOctave(String)
    case outOfRange(String, midiNoteNumber: Int)

    public var description: String {
        switch self {
        case .empty: return "note name is empty"
        case .unknownLetter(let c): return "note name must start with a letter A–G, not '\(c)'"
        case .invalidAccidental(let text): return "note name '\(text)' has more than a double sharp or flat"
        case .missingOctave(let text): return "note name '\(text)' has no octave number (middle C is C4)"
        case .invalidOctave(let text): return "'\(text)' is not an octave number"
        case .outOfRange(let text, let n): return "'\(text)' is MIDI note \(n), outside 0…127"
        }
    }
}

extension Pitch {
    /// Parses a note name with an octave: a letter A–G (either case), an optional accidental
    /// (`#`, `##`, `x`, `♯`, `𝄪`, `b`, `bb`, `♭`, `𝄫`), and an octave number that may be negative,
    /// with middle C = C4 = 60. Examples: "C4", "c#4", "Db4", "B#3" (60), "Cb5" (71), "C-1" (0), "G9" (127).
    public init(parsing text: String) throws(PitchParseError) {
        var scalars = Substring(text).unicodeScalars[...]
        guard let first = scalars.first else { throw .empty }
        let letter: Letter
        switch first {
        case "C", "c": letter = .c
        case "D", "d": letter = .d
        case "E", "e": letter = .e
        case "F", "f": letter = .f
        case "G", "g": letter = .g
        case "A", "a": letter = .a
        case "B", "b": letter = .b
        default: throw .unknownLetter(Character(first))
        }
        scalars = scalars.dropFirst()
        var accidental = 0
        while let s = scalars.first, let step = Self.accidentalSemitones(s) {
            accidental += step
            scalars = scalars.dropFirst()
        }
        guard let acc = Accidental(rawValue: accidental) else { throw .invalidAccidental(text) }
        let octaveText = String(String.UnicodeScalarView(scalars))
        guard !octaveText.isEmpty else { throw .missingOctave(text) }
        guard let octave = Int(octaveText), octaveText.count <= 3 else { throw .invalidOctave(octaveText) }
        let number = (octave + 1) * 12 + letter.semitonesAboveC + acc.semitones
        guard let pitch = Pitch(number) else { throw .outOfRange(text, midiNoteNumber: number) }
        self = pitch
    }

    private static func accidentalSemitones(_ s: Unicode.Scalar) -> Int? {
        switch s {
        case "#", "\u{266F}": return 1
        case "x", "\u{1D12A}": return 2
        case "b", "\u{266D}": return -1
        case "\u{1D12B}": return -2
        default: return nil
        }
    }
}
