/// One of the twelve pitch classes, 0 = C … 11 = B, independent of octave and spelling.
public struct PitchClass: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// 0…11, where 0 is C.
    public let rawValue: Int

    /// Wraps any integer into 0…11 (so −1 is B and 12 is C).
    @inlinable
    public init(_ semitonesAboveC: Int) {
        rawValue = ((semitonesAboveC % 12) + 12) % 12
    }

    public static let all: [PitchClass] = (0..<12).map { PitchClass($0) }

    /// The pitch class `interval` higher (wrapping at the octave).
    @inlinable
    public func transposed(by interval: Interval) -> PitchClass { PitchClass(rawValue + interval.semitones) }

    /// Semitones up from `other` to this pitch class, 0…11.
    @inlinable
    public func semitones(above other: PitchClass) -> Int { ((rawValue - other.rawValue) % 12 + 12) % 12 }

    /// Whether this is a black key on the piano (C♯, E♭, F♯, A♭, B♭).
    public var isAccidental: Bool { [1, 3, 6, 8, 10].contains(rawValue) }

    /// The simplest name: a natural letter, or a single sharp or flat as `spelling` asks.
    public func name(spelling: NoteSpelling = .sharps) -> NoteName {
        switch (rawValue, spelling) {
        case (0, _): return NoteName(.c)
        case (1, .sharps): return NoteName(.c, .sharp)
        case (1, .flats): return NoteName(.d, .flat)
        case (2, _): return NoteName(.d)
        case (3, .sharps): return NoteName(.d, .sharp)
        case (3, .flats): return NoteName(.e, .flat)
        case (4, _): return NoteName(.e)
        case (5, _): return NoteName(.f)
        case (6, .sharps): return NoteName(.f, .sharp)
        case (6, .flats): return NoteName(.g, .flat)
        case (7, _): return NoteName(.g)
        case (8, .sharps): return NoteName(.g, .sharp)
        case (8, .flats): return NoteName(.a, .flat)
        case (9, _): return NoteName(.a)
        case (10, .sharps): return NoteName(.a, .sharp)
        case (10, .flats): return NoteName(.b, .flat)
        default: return NoteName(.b)
        }
    }

    public var description: String { name().description }

    public static func < (lhs: PitchClass, rhs: PitchClass) -> Bool { lhs.rawValue < rhs.rawValue }
}
