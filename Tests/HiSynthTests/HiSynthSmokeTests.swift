import HiSynth
import Testing

@Suite struct HiSynthSmokeTests {
    @Test func rendersANote() {
        var s = HiSynthRig.plain()
        s.layer2 = .init(waveform: .saw, level: 0.5, pitch: 12)
        s.effects.reverbOn = true
        s.effects.reverbMix = 0.3
        let out = HiSynthRig.render(s, seconds: 1, [(0.1, .noteOn(69)), (0.6, .noteOff(69))])
        print("peak", HiSynthRig.peak(out.left, 0..<out.left.count), "f", HiSynthRig.frequency(out.left, 10000..<20000))
        #expect(HiSynthRig.peak(out.left, 0..<out.left.count) > 0.1)
    }
}
