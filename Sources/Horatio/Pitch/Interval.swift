/// A distance between two pitches in equal-tempered semitones (negative means downwards).
public struct Interval: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let semitones: Int

    @inlinable
    public init(semitones: Int) { self.semitones = semitones }

    public static let unison = Interval(semitones: 0)
    public static let minorSecond = Interval(semitones: 1)
    public static let majorSecond = Interval(semitones: 2)
    public static let minorThird = Interval(semitones: 3)
    public static let majorThird = Interval(semitones: 4)
    public static let perfectFourth = Interval(semitones: 5)
    public static let tritone = Interval(semitones: 6)
    public static let perfectFifth = Interval(semitones: 7)
    public static let minorSixth = Interval(semitones: 8)
    public static let majorSixth = Interval(semitones: 9)
    public static let minorSeventh = Interval(semitones: 10)
    public static let majorSeventh = Interval(semitones: 11)
    public static let octave = Interval(semitones: 12)
    public static let minorNinth = Interval(semitones: 13)
    public static let majorNinth = Interval(semitones: 14)

    /// The interval reduced into one octave, 0…11 semitones.
    public var simple: Interval { Interval(semitones: ((semitones % 12) + 12) % 12) }

    /// Frequency ratio in equal temperament: 2^(semitones/12).
    public var frequencyRatio: Double { pow2(Double(semitones) / 12) }

    public static func + (lhs: Interval, rhs: Interval) -> Interval { Interval(semitones: lhs.semitones + rhs.semitones) }
    public static func - (lhs: Interval, rhs: Interval) -> Interval { Interval(semitones: lhs.semitones - rhs.semitones) }
    public static prefix func - (x: Interval) -> Interval { Interval(semitones: -x.semitones) }
    public static func < (lhs: Interval, rhs: Interval) -> Bool { lhs.semitones < rhs.semitones }

    public var description: String { "\(semitones) st" }
}
