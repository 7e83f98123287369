/// The quality of a triad, from its third and fifth above the root.
public enum TriadQuality: String, Sendable, Hashable, Codable, CaseIterable {
    case major, minor, diminished, augmented

    /// The triad quality with a third and fifth of these sizes, or nil if they make none of the four.
    public init?(third: Interval, fifth: Interval) {
        switch (third.simple.semitones, fifth.simple.semitones) {
        case (4, 7): self = .major
        case (3, 7): self = .minor
        case (3, 6): self = .diminished
        case (4, 8): self = .augmented
        default: return nil
        }
    }

    public var third: Interval { self == .major || self == .augmented ? .majorThird : .minorThird }

    public var fifth: Interval {
        switch self {
        case .major, .minor: return .perfectFifth
        case .diminished: return .tritone
        case .augmented: return .minorSixth
        }
    }

    /// Suffix in a chord symbol: "", "m", "°", "+".
    public var symbolSuffix: String {
        switch self {
        case .major: return ""
        case .minor: return "m"
        case .diminished: return "°"
        case .augmented: return "+"
        }
    }
}
