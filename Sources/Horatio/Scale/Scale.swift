/// The twelve scales Prospero offers, as interval patterns above a tonic.
///
/// | Scale | Semitones above the tonic |
/// |---|---|
/// | major (Ionian) | 0 2 4 5 7 9 11 |
/// | natural minor (Aeolian) | 0 2 3 5 7 8 10 |
/// | harmonic minor | 0 2 3 5 7 8 11 |
/// | melodic minor (ascending, jazz minor) | 0 2 3 5 7 9 11 |
/// | major pentatonic | 0 2 4 7 9 |
/// | minor pentatonic | 0 3 5 7 10 |
/// | blues (minor pentatonic + ♭5) | 0 3 5 6 7 10 |
/// | Dorian | 0 2 3 5 7 9 10 |
/// | Phrygian | 0 1 3 5 7 8 10 |
/// | Lydian | 0 2 4 6 7 9 11 |
/// | Mixolydian | 0 2 4 5 7 9 10 |
/// | chromatic | 0 1 2 3 4 5 6 7 8 9 10 11 |
public enum Scale: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case major
    case naturalMinor
    case harmonicMinor
    case melodicMinor
    case majorPentatonic
    case minorPentatonic
    case blues
    case dorian
    case phrygian
    case lydian
    case mixolydian
    case chromatic

    /// Semitones above the tonic of each degree, ascending, starting at 0.
    public var semitones: [Int] {
        switch self {
        case .major: return [0, 2, 4, 5, 7, 9, 11]
        case .naturalMinor: return [0, 2, 3, 5, 7, 8, 10]
        case .harmonicMinor: return [0, 2, 3, 5, 7, 8, 11]
        case .melodicMinor: return [0, 2, 3, 5, 7, 9, 11]
        case .majorPentatonic: return [0, 2, 4, 7, 9]
        case .minorPentatonic: return [0, 3, 5, 7, 10]
        case .blues: return [0, 3, 5, 6, 7, 10]
        case .dorian: return [0, 2, 3, 5, 7, 9, 10]
        case .phrygian: return [0, 1, 3, 5, 7, 8, 10]
        case .lydian: return [0, 2, 4, 6, 7, 9, 11]
        case .mixolydian: return [0, 2, 4, 5, 7, 9, 10]
        case .chromatic: return Array(0..<12)
        }
    }

    /// Degrees per octave (5 for pentatonics, 6 for blues, 12 for chromatic, else 7).
    public var degreeCount: Int { semitones.count }

    /// The scale's pitch classes relative to a C tonic.
    public var pattern: PitchClassSet { PitchClassSet(semitones) }

    /// The scale's pitch classes in `key`.
    public func pitchClasses(in key: MusicalKey) -> PitchClassSet { pattern.rotated(by: key.rawValue) }

    /// Semitones above the tonic of a 1-based scale degree; degrees past the last wrap into higher
    /// octaves (degree 6 of a pentatonic scale is the tonic an octave up, 12 semitones).
    public func semitones(ofDegree degree: Int) -> Int {
        precondition(degree >= 1, "scale degrees count from 1")
        let steps = semitones
        let index = degree - 1
        return steps[index % steps.count] + 12 * (index / steps.count)
    }

    /// The triad built by stacking scale thirds on `degree` (1-based): its root, third and fifth as
    /// semitones above the tonic. Meaningful for the seven-note scales.
    public func stackedTriad(onDegree degree: Int) -> (root: Int, third: Int, fifth: Int) {
        (semitones(ofDegree: degree), semitones(ofDegree: degree + 2), semitones(ofDegree: degree + 4))
    }

    /// Human name, e.g. "natural minor".
    public var displayName: String {
        switch self {
        case .major: return "major"
        case .naturalMinor: return "natural minor"
        case .harmonicMinor: return "harmonic minor"
        case .melodicMinor: return "melodic minor"
        case .majorPentatonic: return "major pentatonic"
        case .minorPentatonic: return "minor pentatonic"
        case .blues: return "blues"
        case .dorian: return "dorian"
        case .phrygian: return "phrygian"
        case .lydian: return "lydian"
        case .mixolydian: return "mixolydian"
        case .chromatic: return "chromatic"
        }
    }

    public var description: String { rawValue }
}
