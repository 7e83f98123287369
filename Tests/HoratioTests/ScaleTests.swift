import Horatio
import Testing

/// Expected values are written from music theory in a different form from the code:
/// scales as whole/half-step patterns, keys as spelled names, mode chord qualities as textbook rows.
@Suite struct ScaleTests {
    /// Semitone value of a spelled note name, written out by hand.
    static let nameValue: [String: Int] = [
        "C": 0, "C#": 1, "Db": 1, "D": 2, "D#": 3, "Eb": 3, "E": 4, "Fb": 4, "E#": 5, "F": 5,
        "F#": 6, "Gb": 6, "G": 7, "G#": 8, "Ab": 8, "A": 9, "A#": 10, "Bb": 10, "B": 11, "Cb": 11, "B#": 0,
    ]

    /// The twelve keys in order, as they are written.
    static let keyNames = ["C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]

    /// Step patterns: W = 2, H = 1, 3 = augmented second.
    static let stepPatterns: [Scale: String] = [
        .major: "WWHWWWH", .naturalMinor: "WHWWHWW", .harmonicMinor: "WHWWH3H", .melodicMinor: "WHWWWWH",
        .majorPentatonic: "WW3W3", .minorPentatonic: "3WW3W", .blues: "3WHH3W", .dorian: "WHWWWHW",
        .phrygian: "HWWWHWW", .lydian: "WWWHWWH", .mixolydian: "WWHWWHW", .chromatic: "HHHHHHHHHHHH",
    ]

    /// Triad qualities on each degree of the seven-note scales (M major, m minor, d diminished, A augmented).
    static let modeTriads: [Scale: String] = [
        .major: "MmmMMmd", .naturalMinor: "mdMmmMM", .harmonicMinor: "mdAmMMd", .melodicMinor: "mmAMMdd",
        .dorian: "mmMMmdM", .phrygian: "mMMmdMm", .lydian: "MMmdMmm", .mixolydian: "MmdMmmM",
    ]

    static func steps(_ pattern: String) -> [Int] {
        pattern.map { $0 == "W" ? 2 : $0 == "H" ? 1 : 3 }
    }

    /// Semitones above the tonic of a 1-based degree, walking the step pattern (wrapping upward).
    static func expectedOffset(_ scale: Scale, degree: Int) -> Int {
        let s = steps(stepPatterns[scale]!)
        return (0..<(degree - 1)).reduce(0) { $0 + s[$1 % s.count] }
    }

    @Test func stepPatternsSpanAnOctave() {
        for (scale, pattern) in Self.stepPatterns {
            #expect(Self.steps(pattern).reduce(0, +) == 12, "\(scale)")
            #expect(scale.degreeCount == pattern.count)
        }
        #expect(Scale.allCases.count == 12)
    }

    @Test func keysHaveTheirTonicsAndNames() {
        #expect(MusicalKey.allCases.count == 12)
        for (i, key) in MusicalKey.allCases.enumerated() {
            #expect(key.description == Self.keyNames[i])
            #expect(key.tonic.rawValue == Self.nameValue[Self.keyNames[i]])
            #expect(MusicalKey(Self.keyNames[i]) == key)
        }
        #expect(MusicalKey("C#") == .dFlat)
        #expect(MusicalKey("Gb") == .fSharp)
        #expect(MusicalKey("H") == nil)
    }

    /// Exhaustive: 12 keys × 12 scales × 7 degrees.
    @Test(arguments: MusicalKey.allCases)
    func everyDegreeOfEveryScaleInEveryKey(key: MusicalKey) throws {
        let tonic = Self.nameValue[key.description]!
        for scale in Scale.allCases {
            let members = scale.pitchClasses(in: key)
            let expectedMembers = Set((1...scale.degreeCount).map { (tonic + Self.expectedOffset(scale, degree: $0)) % 12 })
            #expect(Set(members.semitones) == expectedMembers, "\(key) \(scale)")
            for degree in 1...7 {
                let offset = Self.expectedOffset(scale, degree: degree)
                #expect(scale.semitones(ofDegree: degree) == offset, "\(key) \(scale) degree \(degree)")
                let quantizer = ScaleQuantizer(key: key, scale: scale)
                let note = 60 + tonic + offset
                #expect(quantizer.contains(note), "\(key) \(scale) degree \(degree)")
                #expect(quantizer.quantize(note) == note)
                if let triads = Self.modeTriads[scale] {
                    let t = scale.stackedTriad(onDegree: degree)
                    let quality = TriadQuality(
                        third: Interval(semitones: t.third - t.root), fifth: Interval(semitones: t.fifth - t.root))
                    let expected: TriadQuality = switch Array(triads)[degree - 1] {
                    case "M": .major
                    case "m": .minor
                    case "d": .diminished
                    default: .augmented
                    }
                    #expect(quality == expected, "\(key) \(scale) degree \(degree)")
                }
            }
        }
    }

    @Test func pentatonicDegreesWrapIntoTheNextOctave() {
        #expect(Scale.majorPentatonic.semitones(ofDegree: 6) == 12)
        #expect(Scale.majorPentatonic.semitones(ofDegree: 7) == 14)
        #expect(Scale.blues.semitones(ofDegree: 7) == 12)
        #expect(Scale.chromatic.semitones(ofDegree: 13) == 12)
    }
}
