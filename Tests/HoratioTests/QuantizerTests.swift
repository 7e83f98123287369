import Horatio
import Testing

@Suite struct QuantizerTests {
    @Test func nearestUpAndDownInCMajor() {
        let q = ScaleQuantizer(key: .c, scale: .major)
        #expect(q.quantize(61) == 60)  // equidistant from C and D: goes down
        #expect(q.quantize(61.01) == 62)
        #expect(q.quantize(61, direction: .up) == 62)
        #expect(q.quantize(61, direction: .down) == 60)
        #expect(q.quantize(64.4) == 64)
        #expect(q.quantize(64.6) == 65)  // E to F is a half step
        #expect(q.quantize(-0.5) == -1)  // a tie between B-1 (−1) and C-1 (0) goes down; output is not clamped
        #expect(q.quantize(.nan) == 60)
    }

    @Test(arguments: MusicalKey.allCases)
    func quantisedNotesAreMembersAndNoMemberIsCloser(key: MusicalKey) {
        for scale in Scale.allCases {
            let q = ScaleQuantizer(key: key, scale: scale)
            let members = (0...140).filter { q.contains($0) }
            var x = 12.0
            while x < 120 {
                let n = q.quantize(x)
                #expect(q.contains(n))
                let best = members.map { abs(Double($0) - x) }.min()!
                #expect(abs(Double(n) - x) == best, "\(key) \(scale) at \(x)")
                let up = q.quantize(x, direction: .up)
                let down = q.quantize(x, direction: .down)
                #expect(Double(up) >= x && Double(down) <= x)
                #expect(!members.contains { Double($0) > Double(down) && Double($0) < x })
                #expect(!members.contains { Double($0) < Double(up) && Double($0) > x })
                x += 0.37
            }
        }
    }

    @Test func pitchesOutsideMIDIRangeAreNil() {
        let q = ScaleQuantizer(key: .c, scale: .majorPentatonic)
        // 127 is G9: in C major pentatonic (G), so it stays; nearest for 126 (F#) is G9 (127) vs E9 (124).
        #expect(q.quantize(Pitch(126)!)?.midiNoteNumber == 127)
        let b = ScaleQuantizer(key: .b, scale: .major)  // 127 = G is not in B major; nearest up is G#9 = 128
        #expect(b.quantize(Pitch(127)!, direction: .up) == nil)
    }

    @Test func notesInARange() {
        let q = ScaleQuantizer(key: .a, scale: .minorPentatonic)
        #expect(q.notes(in: 57...69) == [57, 60, 62, 64, 67, 69])
    }
}
