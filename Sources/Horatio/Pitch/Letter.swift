/// The seven natural note letters, C to B.
public enum Letter: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case c, d, e, f, g, a, b

    /// Semitones of the natural note above C: C 0, D 2, E 4, F 5, G 7, A 9, B 11.
    @inlinable
    public var semitonesAboveC: Int {
        switch self {
        case .c: return 0
        case .d: return 2
        case .e: return 4
        case .f: return 5
        case .g: return 7
        case .a: return 9
        case .b: return 11
        }
    }

    /// The letter `steps` places higher, wrapping from B to C (steps may be negative).
    @inlinable
    public func advanced(by steps: Int) -> Letter {
        Letter(rawValue: ((rawValue + steps) % 7 + 7) % 7)!
    }

    public var description: String {
        switch self {
        case .c: return "C"
        case .d: return "D"
        case .e: return "E"
        case .f: return "F"
        case .g: return "G"
        case .a: return "A"
        case .b: return "B"
        }
    }
}
