import Foundation
import HiSynth
import Testing

/// Low-pass and high-pass measured with sine probes against the RBJ cookbook's responses
/// (Q = 10^(dB/20), written here from the cookbook, not from the engine).
@Suite struct HiSynthFilterTests {
    static let fs = HiSynthRig.sampleRate

    /// |H(e^{jω})| of the RBJ cookbook LPF or HPF at `f` for cutoff `f0` and `q`.
    static func rbj(highPass: Bool, f: Double, f0: Double, q: Double) -> Double {
        let w0 = 2 * Double.pi * f0 / fs
        let alpha = sin(w0) / (2 * q), c = cos(w0)
        let b0 = highPass ? (1 + c) / 2 : (1 - c) / 2
        let b1 = highPass ? -(1 + c) : 1 - c
        let b2 = b0
        let a0 = 1 + alpha, a1 = -2 * c, a2 = 1 - alpha
        let w = 2 * Double.pi * f / fs
        func mag(_ x0: Double, _ x1: Double, _ x2: Double) -> Double {
            let re = x0 + x1 * cos(w) + x2 * cos(2 * w)
            let im = -(x1 * sin(w) + x2 * sin(2 * w))
            return (re * re + im * im).squareRoot()
        }
        return mag(b0, b1, b2) / mag(a0, a1, a2)
    }

    /// Gain in dB of the filters at note `note`'s frequency: the probe's amplitude over the open-filter amplitude.
    static func measuredGain(note: UInt8, level: Float, configure: (inout HiSynthSettings) -> Void) -> Double {
        var s = HiSynthRig.plain(level: level)
        configure(&s)
        let out = HiSynthRig.render(s, seconds: 1.2, [(0, .noteOn(note))])
        let amplitude = HiSynthRig.tone(out.left, HiSynthRig.hz(Double(note)), 13_230..<52_920)
        return 20 * log10(amplitude / Double(level * 0.5))
    }

    @Test(arguments: [(Float(-3.0103), UInt8(81)), (0, 81), (6, 81), (12, 81), (-3.0103, 69), (-3.0103, 88), (12, 76), (12, 86), (-12, 93)])
    func lowPassFollowsTheRBJResponse(_ resonance: Float, _ probe: UInt8) {
        let cutoff = HiSynthRig.hz(81)          // 880 Hz: probes at 81 sit exactly on the cutoff
        let level: Float = 0.08
        let gain = Self.measuredGain(note: probe, level: level) { $0.lowPass = .init(cutoff: Float(cutoff), resonance: resonance) }
        let q = pow(10, Double(resonance) / 20)
        let expected = 20 * log10(Self.rbj(highPass: false, f: HiSynthRig.hz(Double(probe)), f0: cutoff, q: q))
        #expect(abs(gain - expected) < 0.1, "LP res \(resonance) dB at note \(probe): \(gain) dB vs RBJ \(expected) dB")
        if probe == 81 { #expect(abs(gain - Double(resonance)) < 0.1) }   // the gain at cutoff is the resonance
    }

    @Test(arguments: [(Float(-3.0103), UInt8(81)), (0, 81), (6, 81), (12, 81), (-3.0103, 69), (-3.0103, 93), (12, 76), (12, 86), (-12, 69)])
    func highPassFollowsTheRBJResponse(_ resonance: Float, _ probe: UInt8) {
        let cutoff = HiSynthRig.hz(81)
        let level: Float = 0.08
        let gain = Self.measuredGain(note: probe, level: level) { $0.highPass = .init(cutoff: Float(cutoff), resonance: resonance) }
        let q = pow(10, Double(resonance) / 20)
        let expected = 20 * log10(Self.rbj(highPass: true, f: HiSynthRig.hz(Double(probe)), f0: cutoff, q: q))
        #expect(abs(gain - expected) < 0.1, "HP res \(resonance) dB at note \(probe): \(gain) dB vs RBJ \(expected) dB")
    }

    @Test func resonanceAboveThirtyFourDecibelsIsClampedToQFifty() {
        let cutoff = Float(HiSynthRig.hz(81))
        let gain = Self.measuredGain(note: 81, level: 0.002) { $0.lowPass = .init(cutoff: cutoff, resonance: 40) }
        #expect(abs(gain - 20 * log10(50)) < 0.2)
    }

    @Test func lowPassThenHighPassMultiply() {
        let (lp, hp) = (HiSynthRig.hz(86), HiSynthRig.hz(74))
        let gain = Self.measuredGain(note: 81, level: 0.1) {
            $0.lowPass = .init(cutoff: Float(lp), resonance: 3)
            $0.highPass = .init(cutoff: Float(hp), resonance: 3)
        }
        let q = pow(10, 3.0 / 20)
        let f = HiSynthRig.hz(81)
        let expected = 20 * log10(Self.rbj(highPass: false, f: f, f0: lp, q: q) * Self.rbj(highPass: true, f: f, f0: hp, q: q))
        #expect(abs(gain - expected) < 0.1)
    }

    @Test func highPassCutoffOfZeroRunsAtTenHertz() {
        // 10 of the 15 factory presets store a high-pass cutoff of 0: the filter runs at 10 Hz, Q 1.
        let gain = Self.measuredGain(note: 21, level: 0.4) { $0.highPass = .init(cutoff: 0, resonance: 0) }
        let expected = 20 * log10(Self.rbj(highPass: true, f: HiSynthRig.hz(21), f0: 10, q: 1))
        #expect(abs(gain - expected) < 0.1)
    }
}
