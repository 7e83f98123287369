/// The diatonic chords of a major key by scale degree, I to vii°, as the Nashville number system names them.
///
/// Chords are built by stacking thirds within the key's major scale, so the qualities follow:
/// I, IV, V major; ii, iii, vi minor; vii° diminished. Sevenths and ninths are diatonic too:
/// Imaj7, ii m7, iii m7, IVmaj7, V7, vi m7, viiø7, with major ninths except on iii and vii° (minor ninths).
public enum NashvilleDegree: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case one = 1, two, three, four, five, six, seven

    /// Roman numeral with case for quality: "I", "ii", "iii", "IV", "V", "vi", "vii°".
    public var romanNumeral: String {
        switch self {
        case .one: return "I"
        case .two: return "ii"
        case .three: return "iii"
        case .four: return "IV"
        case .five: return "V"
        case .six: return "vi"
        case .seven: return "vii°"
        }
    }

    /// Parses "I"…"vii°" (also "vii", "viio") or a digit 1…7.
    public init?(_ text: String) {
        if let n = Int(text), let d = NashvilleDegree(rawValue: n) { self = d; return }
        let normalised = text.replacingDegreeSign()
        guard let d = NashvilleDegree.allCases.first(where: {
            $0.romanNumeral.replacingDegreeSign().lowercased() == normalised.lowercased()
        }) else { return nil }
        self = d
    }

    /// The triad quality this degree has in a major key.
    public var quality: TriadQuality {
        switch self {
        case .one, .four, .five: return .major
        case .two, .three, .six: return .minor
        case .seven: return .diminished
        }
    }

    /// The diatonic chord on this degree of `key`'s major scale, spelled in that key.
    public func chord(in key: MusicalKey) -> Chord {
        let scale = Scale.major
        let root = scale.semitones(ofDegree: rawValue)
        func above(_ steps: Int) -> Interval {
            Interval(semitones: scale.semitones(ofDegree: rawValue + steps) - root)
        }
        let third = above(ChordTone.third.scaleSteps)
        let fifth = above(ChordTone.fifth.scaleSteps)
        let rootClass = key.tonic.transposed(by: Interval(semitones: root))
        return Chord(
            root: key.spell(rootClass),
            quality: TriadQuality(third: third, fifth: fifth)!,
            seventh: above(ChordTone.seventh.scaleSteps),
            ninth: above(ChordTone.ninth.scaleSteps)
        )
    }

    public var description: String { romanNumeral }
}

extension String {
    fileprivate func replacingDegreeSign() -> String {
        var s = self
        if s.hasSuffix("°") || s.hasSuffix("o") { s.removeLast() }
        return s
    }
}
