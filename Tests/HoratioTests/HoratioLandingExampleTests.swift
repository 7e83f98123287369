import Horatio
import Testing

@Suite("Horatio's landing example")
struct HoratioLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        let quantizer = ScaleQuantizer(key: .d, scale: .dorian)
        // 63.4 lies between D4 (62) and E4 (64); the nearer member wins.
        let snapped = quantizer.quantize(63.4)
        let pitch = Pitch(snapped) ?? .middleC
        let hertz = pitch.frequency(a4: 440)

        // Dm9: the third of the chord rooted in octave 4.
        let chord = Chord(root: NoteName(.d), quality: .minor, seventh: .minorSeventh, ninth: .majorNinth)
        let third = chord.pitch(of: .third, rootOctave: 4)
        let parsed = try Pitch(parsing: "F4")

        #expect(snapped == 64)
        #expect(pitch.name() == "E4")
        #expect(abs(hertz - 329.628) < 0.01)
        #expect(third == parsed)
    }
}
