import Horatio
import Testing

@Suite struct NashvilleTests {
    /// Every major scale, spelled as a musician writes it.
    static let majorScales: [MusicalKey: [String]] = [
        .c: ["C", "D", "E", "F", "G", "A", "B"],
        .dFlat: ["Db", "Eb", "F", "Gb", "Ab", "Bb", "C"],
        .d: ["D", "E", "F#", "G", "A", "B", "C#"],
        .eFlat: ["Eb", "F", "G", "Ab", "Bb", "C", "D"],
        .e: ["E", "F#", "G#", "A", "B", "C#", "D#"],
        .f: ["F", "G", "A", "Bb", "C", "D", "E"],
        .fSharp: ["F#", "G#", "A#", "B", "C#", "D#", "E#"],
        .g: ["G", "A", "B", "C", "D", "E", "F#"],
        .aFlat: ["Ab", "Bb", "C", "Db", "Eb", "F", "G"],
        .a: ["A", "B", "C#", "D", "E", "F#", "G#"],
        .bFlat: ["Bb", "C", "D", "Eb", "F", "G", "A"],
        .b: ["B", "C#", "D#", "E", "F#", "G#", "A#"],
    ]

    static let triadSuffix = ["", "m", "m", "", "", "m", "°"]
    static let seventhSuffix = ["maj7", "m7", "m7", "maj7", "7", "m7", "ø7"]
    static let numerals = ["I", "ii", "iii", "IV", "V", "vi", "vii°"]

    /// Expected pitch of the scale note `index` steps above the tonic (wrapping up an octave per 7).
    static func expectedNote(_ key: MusicalKey, _ index: Int, octave: Int) -> Int {
        let names = majorScales[key]!
        let tonic = ScaleTests.nameValue[names[0]]!
        var value = ScaleTests.nameValue[names[index % 7]]!
        while value < tonic { value += 12 }
        return (octave + 1) * 12 + value + 12 * (index / 7)
    }

    @Test(arguments: MusicalKey.allCases)
    func degreesHaveTheRightRootsQualitiesAndTones(key: MusicalKey) throws {
        for degree in NashvilleDegree.allCases {
            let i = degree.rawValue - 1
            let chord = degree.chord(in: key)
            #expect(degree.romanNumeral == Self.numerals[i])
            #expect(chord.symbol == Self.majorScales[key]![i] + Self.triadSuffix[i], "\(key) \(degree)")
            #expect(chord.seventhSymbol == Self.majorScales[key]![i] + Self.seventhSuffix[i], "\(key) \(degree)")
            // Chord tones: stacked scale thirds, with the root in octave 3.
            let rootNote = Self.expectedNote(key, i, octave: 3)
            let tones: [(ChordTone, Int)] = [
                (.root, rootNote), (.third, Self.expectedNote(key, i + 2, octave: 3)),
                (.fifth, Self.expectedNote(key, i + 4, octave: 3)), (.seventh, Self.expectedNote(key, i + 6, octave: 3)),
                (.ninth, Self.expectedNote(key, i + 8, octave: 3)), (.octave, rootNote + 12),
            ]
            let rootOctave = rootNote / 12 - 1
            for (tone, expected) in tones {
                #expect(chord.pitch(of: tone, rootOctave: rootOctave)?.midiNoteNumber == expected, "\(key) \(degree) \(tone)")
            }
        }
    }

    @Test func qualitiesFollowTheMajorKey() {
        #expect(NashvilleDegree.allCases.map(\.quality) == [.major, .minor, .minor, .major, .major, .minor, .diminished])
        // The seventh chords in C: Cmaj7 (B), Dm7 (C), Em7 (D), Fmaj7 (E), G7 (F), Am7 (G), Bø7 (A).
        let sevenths = NashvilleDegree.allCases.map { $0.chord(in: .c).interval(of: .seventh).semitones }
        #expect(sevenths == [11, 10, 10, 11, 10, 10, 10])
        let ninths = NashvilleDegree.allCases.map { $0.chord(in: .c).interval(of: .ninth).semitones }
        #expect(ninths == [14, 14, 13, 14, 14, 14, 13])
    }

    @Test func parsesNumerals() {
        #expect(NashvilleDegree("vii°") == .seven)
        #expect(NashvilleDegree("viio") == .seven)
        #expect(NashvilleDegree("vii") == .seven)
        #expect(NashvilleDegree("IV") == .four)
        #expect(NashvilleDegree("4") == .four)
        #expect(NashvilleDegree("8") == nil)
        #expect(NashvilleDegree("X") == nil)
    }

    @Test func chromaticNotesTakeTheSimplerSpelling() {
        #expect(MusicalKey.dFlat.spell(PitchClass(2)).description == "D")
        #expect(MusicalKey.d.spell(PitchClass(3)).description == "D#")
        #expect(MusicalKey.f.spell(PitchClass(6)).description == "Gb")
        #expect(MusicalKey.fSharp.spell(PitchClass(5)).description == "E#")
    }
}
