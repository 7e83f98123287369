/// A chord as a root and the interval of each chord tone above it, with root, third, fifth,
/// seventh, ninth and octave always defined (a triad still has a seventh and ninth available as
/// extensions, which is what Hecate's tone banks fade in).
public struct Chord: Sendable, Hashable, Codable, CustomStringConvertible {
    public var root: PitchClass
    /// The root as spelled in its key (used for the symbol).
    public var rootName: NoteName
    public var quality: TriadQuality
    public var seventh: Interval
    public var ninth: Interval

    public init(root: NoteName, quality: TriadQuality, seventh: Interval, ninth: Interval) {
        self.root = root.pitchClass
        self.rootName = root
        self.quality = quality
        self.seventh = seventh
        self.ninth = ninth
    }

    /// The interval above the root of `tone`.
    public func interval(of tone: ChordTone) -> Interval {
        switch tone {
        case .root: return .unison
        case .third: return quality.third
        case .fifth: return quality.fifth
        case .seventh: return seventh
        case .ninth: return ninth
        case .octave: return .octave
        }
    }

    /// The sounding pitch of `tone` with the root in `octave` (C4 = 60), or nil outside 0…127.
    public func pitch(of tone: ChordTone, rootOctave octave: Int) -> Pitch? {
        Pitch((octave + 1) * 12 + root.rawValue + interval(of: tone).semitones)
    }

    /// Chord symbol for the triad: "C", "Ebm", "B°".
    public var symbol: String { "\(rootName)\(quality.symbolSuffix)" }

    /// Chord symbol with its seventh: "Cmaj7", "Dm7", "G7", "Bø7".
    public var seventhSymbol: String {
        switch (quality, seventh.semitones) {
        case (.major, 11): return "\(rootName)maj7"
        case (.major, 10): return "\(rootName)7"
        case (.minor, 10): return "\(rootName)m7"
        case (.minor, 11): return "\(rootName)m(maj7)"
        case (.diminished, 10): return "\(rootName)ø7"
        case (.diminished, 9): return "\(rootName)°7"
        case (.augmented, 11): return "\(rootName)+maj7"
        case (.augmented, 10): return "\(rootName)+7"
        default: return "\(symbol)(7:\(seventh.semitones))"
        }
    }

    public var description: String { symbol }
}
