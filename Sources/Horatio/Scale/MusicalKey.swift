/// One of the twelve keys an instrument plays in, named by its tonic.
///
/// The black-key tonics use the spelling with fewer accidentals in major
/// (D♭, E♭, F♯, A♭, B♭), so every major scale is spelled with one letter per degree
/// and at most six sharps or flats.
public enum MusicalKey: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case c = 0, dFlat, d, eFlat, e, f, fSharp, g, aFlat, a, bFlat, b

    /// The tonic's pitch class.
    @inlinable
    public var tonic: PitchClass { PitchClass(rawValue) }

    /// The tonic as spelled in this key's name.
    public var tonicName: NoteName {
        switch self {
        case .c: return NoteName(.c)
        case .dFlat: return NoteName(.d, .flat)
        case .d: return NoteName(.d)
        case .eFlat: return NoteName(.e, .flat)
        case .e: return NoteName(.e)
        case .f: return NoteName(.f)
        case .fSharp: return NoteName(.f, .sharp)
        case .g: return NoteName(.g)
        case .aFlat: return NoteName(.a, .flat)
        case .a: return NoteName(.a)
        case .bFlat: return NoteName(.b, .flat)
        case .b: return NoteName(.b)
        }
    }

    /// Whether the key signature of its major scale uses flats (F, B♭, E♭, A♭, D♭) rather than sharps.
    public var spelling: NoteSpelling {
        switch self {
        case .f, .bFlat, .eFlat, .aFlat, .dFlat: return .flats
        default: return .sharps
        }
    }

    /// The name of the note `semitones` above the tonic, spelled for this key's major scale:
    /// degree letters advance one per scale step, and chromatic notes take the key's accidental direction.
    public func spell(_ pitchClass: PitchClass) -> NoteName {
        let above = pitchClass.semitones(above: tonic)
        // Major-scale degree for each semitone above the tonic; chromatic notes borrow a neighbour letter.
        let majorSteps = [0, 2, 4, 5, 7, 9, 11]
        if let degree = majorSteps.firstIndex(of: above) {
            return Self.name(pitchClass, letter: tonicName.letter.advanced(by: degree))
        }
        // A chromatic note: either the degree below raised or the degree above lowered; take the
        // simpler accidental, and on a tie the direction of the key signature.
        let below = majorSteps.lastIndex { $0 < above }!
        let raised = Self.name(pitchClass, letter: tonicName.letter.advanced(by: below))
        let lowered = Self.name(pitchClass, letter: tonicName.letter.advanced(by: below + 1))
        let r = raised.accidental.semitones.magnitude, l = lowered.accidental.semitones.magnitude
        if r != l { return r < l ? raised : lowered }
        return spelling == .sharps ? raised : lowered
    }

    private static func name(_ pitchClass: PitchClass, letter: Letter) -> NoteName {
        var offset = pitchClass.rawValue - letter.semitonesAboveC
        if offset > 6 { offset -= 12 }
        if offset < -6 { offset += 12 }
        return NoteName(letter, Accidental(rawValue: offset) ?? .natural)
    }

    /// The key whose tonic is `pitchClass`.
    public init(tonic pitchClass: PitchClass) { self = MusicalKey(rawValue: pitchClass.rawValue)! }

    /// Parses a key name such as "C", "Db", "D♭", "C#" (as D♭), "F#", "Gb" (as F♯), "bb" (as B♭); case-insensitive letter.
    public init?(_ text: String) {
        guard let pitch = try? Pitch(parsing: text + "4") else { return nil }
        self.init(tonic: pitch.pitchClass)
    }

    public var description: String { tonicName.description }
}
