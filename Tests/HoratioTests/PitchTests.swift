import Horatio
import Testing

@Suite struct PitchTests {
    /// Note names and MIDI numbers from the MIDI spec's octave convention (middle C = C4 = 60).
    static let names: [(String, Int)] = [
        ("C-1", 0), ("C#-1", 1), ("B-1", 11), ("C0", 12), ("A0", 21), ("C1", 24), ("E2", 40),
        ("B3", 59), ("Cb4", 59), ("B#3", 60), ("C4", 60), ("c4", 60), ("C#4", 61), ("Db4", 61),
        ("D4", 62), ("Ebb4", 62), ("C##4", 62), ("Cx4", 62), ("E4", 64), ("Fb4", 64), ("E#4", 65),
        ("F4", 65), ("F♯4", 66), ("G♭4", 66), ("A4", 69), ("bb4", 70), ("B4", 71), ("Cb5", 71),
        ("C5", 72), ("C8", 108), ("G9", 127),
    ]

    @Test func parsesNamesWithTheMiddleCIsC4Convention() throws {
        for (name, number) in Self.names {
            #expect(try Pitch(parsing: name).midiNoteNumber == number, "\(name)")
        }
    }

    @Test func everyPitchRoundTripsThroughBothSpellings() throws {
        for n in 0...127 {
            let pitch = try #require(Pitch(n))
            for spelling in NoteSpelling.allCases {
                let name = pitch.name(spelling: spelling)
                #expect(try Pitch(parsing: name) == pitch, "\(name)")
            }
        }
    }

    @Test func sharpAndFlatNamesOfTheBlackKeys() throws {
        let sharps = ["C4", "C#4", "D4", "D#4", "E4", "F4", "F#4", "G4", "G#4", "A4", "A#4", "B4"]
        let flats = ["C4", "Db4", "D4", "Eb4", "E4", "F4", "Gb4", "G4", "Ab4", "A4", "Bb4", "B4"]
        for i in 0..<12 {
            let p = try #require(Pitch(60 + i))
            #expect(p.name(spelling: .sharps) == sharps[i])
            #expect(p.name(spelling: .flats) == flats[i])
        }
    }

    @Test func enharmonicSpellingsKeepTheWrittenOctave() throws {
        #expect(try #require(Pitch(60)).name(as: NoteName(.b, .sharp)) == "B#3")
        #expect(try #require(Pitch(59)).name(as: NoteName(.c, .flat)) == "Cb4")
        #expect(try #require(Pitch(71)).name(as: NoteName(.c, .flat)) == "Cb5")
    }

    @Test func frequenciesInEqualTemperament() throws {
        // Reference values: A4 = 440 Hz; C4 = 440·2^(−9/12); A0 = 27.5; C8 = 4186.009; G9 = 12543.854.
        let cases: [(Int, Double, Double)] = [
            (69, 440, 440), (60, 440, 261.625_565_300_6), (21, 440, 27.5), (108, 440, 4186.009_044_809_6),
            (127, 440, 12_543.853_951_415_9), (0, 440, 8.175_798_915_6), (69, 432, 432), (57, 432, 216),
            (70, 415, 439.677_184_159_1),
        ]
        for (n, a4, hz) in cases {
            let f = try #require(Pitch(n)).frequency(a4: a4)
            #expect(abs(f - hz) / hz < 1e-9, "note \(n) at A4=\(a4): \(f) vs \(hz)")
        }
    }

    @Test func nearestPitchToAFrequency() {
        #expect(Pitch(nearestTo: 440)?.midiNoteNumber == 69)
        #expect(Pitch(nearestTo: 452)?.midiNoteNumber == 69)  // +46 cents
        #expect(Pitch(nearestTo: 454)?.midiNoteNumber == 70)  // +54 cents
        #expect(Pitch(nearestTo: 261.63)?.midiNoteNumber == 60)
        #expect(Pitch(nearestTo: 0) == nil)
        #expect(Pitch(nearestTo: .nan) == nil)
        #expect(Pitch(nearestTo: 30_000) == nil)
    }

    @Test func outOfRangeNumbersAreRejectedNotClamped() {
        #expect(Pitch(-1) == nil)
        #expect(Pitch(128) == nil)
        #expect(Pitch(127)?.transposed(by: .minorSecond) == nil)
        #expect(Pitch(60)?.transposed(by: .octave)?.midiNoteNumber == 72)
    }

    @Test func malformedNamesGiveNamedErrors() {
        #expect(throws: PitchParseError.empty) { try Pitch(parsing: "") }
        #expect(throws: PitchParseError.unknownLetter("H")) { try Pitch(parsing: "H4") }
        #expect(throws: PitchParseError.missingOctave("C#")) { try Pitch(parsing: "C#") }
        #expect(throws: PitchParseError.invalidOctave("4.5")) { try Pitch(parsing: "C4.5") }
        #expect(throws: PitchParseError.invalidAccidental("C###4")) { try Pitch(parsing: "C###4") }
        #expect(throws: PitchParseError.outOfRange("G#9", midiNoteNumber: 128)) { try Pitch(parsing: "G#9") }
        #expect(throws: PitchParseError.outOfRange("Cb-1", midiNoteNumber: -1)) { try Pitch(parsing: "Cb-1") }
    }

    @Test func intervalsAndPitchClasses() {
        #expect(abs(Interval.perfectFifth.frequencyRatio - 1.498_307_076_876_681_5) < 1e-12)
        #expect(abs(Interval.octave.frequencyRatio - 2) < 1e-15)
        #expect(abs(Interval(semitones: -12).frequencyRatio - 0.5) < 1e-15)
        #expect(Interval(semitones: -1).simple.semitones == 11)
        #expect(PitchClass(-1).rawValue == 11)
        #expect(PitchClass(2).semitones(above: PitchClass(11)) == 3)
        #expect(PitchClass(10).transposed(by: .majorThird) == PitchClass(2))
    }
}
