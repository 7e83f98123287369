import Foundation
import HiSynth
import Testing
import Touchstone

/// Each waveform's spectrum and each layer's pitch offset, measured from rendered audio.
@Suite struct HiSynthOscillatorTests {
    /// Relative harmonic amplitudes of the ideal waveforms (Fourier series), harmonics 1…8.
    static func idealHarmonics(_ w: HiSynthWaveform) -> [Double] {
        (1...8).map { k -> Double in
            let kd = Double(k)
            switch w {
            case .sine: return k == 1 ? 1 : 0
            case .saw, .rsaw: return 1 / kd
            case .square: return k % 2 == 1 ? 1 / kd : 0
            case .triangle: return k % 2 == 1 ? 1 / (kd * kd) : 0
            case .pulse: return abs(sin(Double.pi * kd * 0.25)) / kd / sin(Double.pi * 0.25)
            }
        }
    }

    @Test(arguments: HiSynthWaveform.allCases)
    func spectrumMatchesTheWaveform(_ waveform: HiSynthWaveform) {
        let level: Float = 0.5
        let out = HiSynthRig.render(HiSynthRig.plain(level: level, waveform: waveform), seconds: 1.3, [(0, .noteOn(57))])
        let f0 = HiSynthRig.hz(57)
        let range = 8_820..<(8_820 + 44_100)
        let measured = (1...8).map { HiSynthRig.tone(out.left, f0 * Double($0), range) }
        let ideal = Self.idealHarmonics(waveform)
        let fundamental = measured[0]
        for k in 1..<8 {
            let relative = measured[k] / fundamental
            if ideal[k] > 1e-9 {
                let errorDB = 20 * log10(relative / ideal[k])
                #expect(abs(errorDB) < 0.3, "\(waveform) harmonic \(k + 1): \(relative) vs \(ideal[k])")
            } else {
                #expect(20 * log10(max(relative, 1e-12)) < -50, "\(waveform) harmonic \(k + 1) should be absent: \(relative)")
            }
        }
        if waveform == .sine {
            // Level 0.5 × the filter-out gain 0.5: a sine of amplitude 0.25.
            #expect(abs(fundamental - 0.25) < 0.0025)
        }
        // Both output channels carry the same mono signal before the (mono-in) reverb, which is off.
        #expect(out.left == out.right)
    }

    @Test(arguments: [Float(-12), -7, -1, 0, 5, 12, 4.7, -3.9])
    func layerPitchOffsetIsWithinHalfACent(_ pitch: Float) {
        var s = HiSynthRig.plain(level: 0)
        s.layer2 = .init(waveform: .sine, level: 0.5, pitch: pitch)
        let note: UInt8 = 60
        let out = HiSynthRig.render(s, seconds: 1.2, [(0, .noteOn(note))])
        // The original converts note + pitch to Int8, truncating towards zero.
        let expected = HiSynthRig.hz((Double(note) + Double(pitch)).rounded(.towardZero))
        let measured = HiSynthRig.frequency(out.left, 4_410..<52_920)
        let cents = 1200 * log2(measured / expected)
        #expect(abs(cents) < 0.5, "pitch \(pitch): \(measured) Hz vs \(expected) Hz (\(cents) cents)")
    }

    @Test func bothLayersSoundEachNote() {
        var s = HiSynthRig.plain(level: 0.4)
        s.layer2 = .init(waveform: .sine, level: 0.2, pitch: 12)
        let out = HiSynthRig.render(s, seconds: 1, [(0, .noteOn(57))])
        let range = 4_410..<44_100
        #expect(abs(HiSynthRig.tone(out.left, HiSynthRig.hz(57), range) - 0.2) < 0.002)
        #expect(abs(HiSynthRig.tone(out.left, HiSynthRig.hz(69), range) - 0.1) < 0.001)
    }
}
