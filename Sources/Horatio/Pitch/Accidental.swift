/// A sharp or flat applied to a letter, from double flat (−2 semitones) to double sharp (+2).
public enum Accidental: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case doubleFlat = -2
    case flat = -1
    case natural = 0
    case sharp = 1
    case doubleSharp = 2

    /// Semitones the accidental adds to its letter.
    @inlinable
    public var semitones: Int { rawValue }

    /// ASCII spelling: "bb", "b", "", "#", "##".
    public var description: String {
        switch self {
        case .doubleFlat: return "bb"
        case .flat: return "b"
        case .natural: return ""
        case .sharp: return "#"
        case .doubleSharp: return "##"
        }
    }
}
