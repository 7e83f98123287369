/// A note length for tempo-synced LFOs and delays: 1/1 … 1/32, straight, dotted or triplet.
///
/// Lengths are in quarter-note beats (the unit of BPM): 1/4 = 1 beat, 1/1 = 4 beats, a dotted note
/// lasts 1.5× and a triplet ⅔ of the straight note.
///
///     let d = NoteDivision.eighth.dotted        // 0.75 beat
///     d.frequency(bpm: 120)                     // 2.667 Hz
@frozen
public struct NoteDivision: Sendable, Hashable, Codable {
    /// Straight, dotted (×1.5) or triplet (×⅔).
    public enum Modifier: String, Sendable, Hashable, Codable, CaseIterable {
        case straight, dotted, triplet
    }

    /// The note value's denominator: 1, 2, 4, 8, 16 or 32.
    public let denominator: Int
    /// Straight, dotted or triplet.
    public let modifier: Modifier

    /// The allowed denominators, longest note first.
    public static let denominators = [1, 2, 4, 8, 16, 32]

    /// Creates a division, or nil when `denominator` is not one of 1, 2, 4, 8, 16, 32.
    public init?(denominator: Int, modifier: Modifier = .straight) {
        guard Self.denominators.contains(denominator) else { return nil }
        self.denominator = denominator
        self.modifier = modifier
    }

    @usableFromInline
    init(unchecked denominator: Int, _ modifier: Modifier) {
        self.denominator = denominator
        self.modifier = modifier
    }

    public static let whole = NoteDivision(unchecked: 1, .straight)
    public static let half = NoteDivision(unchecked: 2, .straight)
    public static let quarter = NoteDivision(unchecked: 4, .straight)
    public static let eighth = NoteDivision(unchecked: 8, .straight)
    public static let sixteenth = NoteDivision(unchecked: 16, .straight)
    public static let thirtySecond = NoteDivision(unchecked: 32, .straight)

    /// The same note value, dotted (1.5× as long).
    public var dotted: NoteDivision { NoteDivision(unchecked: denominator, .dotted) }
    /// The same note value as a triplet (⅔ as long).
    public var triplet: NoteDivision { NoteDivision(unchecked: denominator, .triplet) }

    /// Every division, 1/1 … 1/32 in straight, dotted and triplet form (18 values).
    public static var allDivisions: [NoteDivision] {
        denominators.flatMap { d in Modifier.allCases.map { NoteDivision(unchecked: d, $0) } }
    }

    /// Length in quarter-note beats (1/4 = 1).
    public var beats: Double {
        let straight = 4 / Double(denominator)
        switch modifier {
        case .straight: return straight
        case .dotted: return straight * 1.5
        case .triplet: return straight * 2 / 3
        }
    }

    /// Length in seconds at `bpm` quarter-note beats per minute (> 0).
    public func seconds(bpm: Double) -> Double {
        beats * 60 / bpm
    }

    /// Repetition rate in Hz when one period lasts this division at `bpm` (> 0).
    public func frequency(bpm: Double) -> Double {
        bpm / (60 * beats)
    }
}

extension NoteDivision {
    private enum CodingKeys: String, CodingKey { case denominator, modifier }

    /// Decodes a division, rejecting denominators other than 1, 2, 4, 8, 16, 32 with a
    /// `DecodingError.dataCorrupted` that names the value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let denominator = try container.decode(Int.self, forKey: .denominator)
        let modifier = try container.decodeIfPresent(Modifier.self, forKey: .modifier) ?? .straight
        guard let division = NoteDivision(denominator: denominator, modifier: modifier) else {
            throw DecodingError.dataCorruptedError(
                forKey: .denominator, in: container,
                debugDescription: "note division denominator \(denominator) is not one of 1, 2, 4, 8, 16, 32")
        }
        self = division
    }
}

extension NoteDivision: CustomStringConvertible {
    /// "1/8", "1/8.", "1/8T".
    public var description: String {
        switch modifier {
        case .straight: "1/\(denominator)"
        case .dotted: "1/\(denominator)."
        case .triplet: "1/\(denominator)T"
        }
    }
}
