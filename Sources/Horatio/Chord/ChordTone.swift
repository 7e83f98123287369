/// The chord members Hecate's tone banks and Prospero's fret labels speak of.
public enum ChordTone: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case root, third, fifth, seventh, ninth, octave

    /// Scale steps above the chord root when stacking diatonic thirds (root 0, third 2, fifth 4,
    /// seventh 6, ninth 8); the octave is 7 steps, the root doubled.
    public var scaleSteps: Int {
        switch self {
        case .root: return 0
        case .third: return 2
        case .fifth: return 4
        case .seventh: return 6
        case .ninth: return 8
        case .octave: return 7
        }
    }

    public var description: String { rawValue }
}

/// Lets chord tones key dictionaries that encode as JSON objects ({"root": 1}).
extension ChordTone: CodingKeyRepresentable {}
