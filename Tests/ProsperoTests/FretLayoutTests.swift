import Horatio
import Prospero
import Testing

@Suite struct FretLayoutTests {
    @Test func boundariesAndZonesMatchTheRouterMath() throws {
        let frets = try #require(FretLayout(key: .c, scale: .majorPentatonic, range: 48...72))
        #expect(frets.zoneCount == 11)
        #expect(frets.zone(forScreenY: 0.1) == 9)
        #expect(frets.screenBoundaries.count == 12)
        #expect(frets.screenBoundaries.first == 0 && frets.screenBoundaries.last == 1)
        // Zone 9 (69) lies between screen y 1 − 10/11 and 1 − 9/11.
        let a = frets.frets[9]
        #expect(a.note == 69)
        #expect(abs(a.top - (1 - 10.0 / 11)) < 1e-12 && abs(a.bottom - (1 - 9.0 / 11)) < 1e-12)
        // Every fret's centre maps back to its own zone, as the router would play it.
        for fret in frets.frets { #expect(frets.zone(forScreenY: fret.centre) == fret.zone) }
        #expect(FretLayout(key: .c, scale: .major, range: 61...61) == nil)
    }

    @Test func smartLabelsMarkRootFifthThirdAndFillGaps() throws {
        // C major 60…72: C D E F G A B C. Root C, third E, fifth G; D, F, A, B are unlabelled
        // until a run exceeds two: F (alone between E and G) stays bare, A B (two) stay bare.
        let major = try #require(FretLayout(key: .c, scale: .major, range: 60...72))
        #expect(major.labels.map { $0?.role } == [.root, nil, .third, nil, .fifth, nil, nil, .root])
        #expect(major.labels[0]?.name == "C4" && major.labels[4]?.name == "G4")
        // A minor pentatonic (A C D E G): third C (minor), fifth E; flats/sharps spelled for the key.
        let minor = try #require(FretLayout(key: .a, scale: .minorPentatonic, range: 57...69))
        #expect(minor.labels.map { $0?.role } == [.root, .third, nil, .fifth, nil, .root])
        // Chromatic C 60…72: runs of three or more unlabelled notes get a gap-fill label on every third zone.
        let chromatic = try #require(FretLayout(key: .c, scale: .chromatic, range: 60...72))
        let roles = chromatic.labels.map { $0?.role }
        #expect(roles == [.root, nil, nil, .gapFill, .third, nil, nil, .fifth, nil, nil, .gapFill, nil, .root])
        // Eb key spells flats: Bb is the fifth.
        let eb = try #require(FretLayout(key: .eFlat, scale: .major, range: 63...75))
        #expect(eb.labels[4]?.name == "Bb4")
        // No run of more than two unlabelled zones in any key and scale.
        for key in MusicalKey.allCases {
            for scale in Scale.allCases {
                let layout = try #require(FretLayout(key: key, scale: scale, range: 36...96))
                var run = 0
                for label in layout.labels {
                    run = label == nil ? run + 1 : 0
                    #expect(run <= FretLayout.maximumUnlabelledRun, "\(key) \(scale)")
                }
            }
        }
    }
}
