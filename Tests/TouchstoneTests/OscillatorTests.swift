import Foundation
import Testing
import Touchstone

@Suite struct OscillatorTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 256)

    /// 2^16 samples of `waveform` at `frequency` after a short warm-up.
    static func render(_ waveform: Waveform, frequency: Float = 2637, pulseWidth: Float = 0.5) -> [Float] {
        var osc = BandLimitedOscillator(waveform: waveform, frequency: frequency, pulseWidth: pulseWidth)
        osc.prepare(spec)
        _ = Render.generate(&osc, count: 1024)
        return Render.generate(&osc, count: 1 << 16)
    }

    /// Naive (unfiltered) saw, to show the measurement distinguishes aliasing from band-limiting.
    static func naiveSaw(frequency: Double, count: Int) -> [Float] {
        var phase = 0.0
        return (0..<count).map { _ in
            let y = Float(2 * phase - 1)
            phase += frequency / sampleRate
            if phase >= 1 { phase -= 1 }
            return y
        }
    }

    struct AliasCase: CustomTestStringConvertible, Sendable {
        var waveform: Waveform
        var pulseWidth: Float
        var fullBandLimit: Double
        var below10kLimit: Double
        var testDescription: String { "\(waveform) width \(pulseWidth)" }
    }

    // The floor is Faust's os.polyblep_saw: −28.5 dB full band, −50.6 dB below 10 kHz (dsp-references.md);
    // the four-point BLEP must clear it by a wide margin (limits sit ~1–2 dB above the measured values).
    static let aliasCases: [AliasCase] = [
        AliasCase(waveform: .saw, pulseWidth: 0.5, fullBandLimit: -37, below10kLimit: -75),
        AliasCase(waveform: .reverseSaw, pulseWidth: 0.5, fullBandLimit: -37, below10kLimit: -75),
        AliasCase(waveform: .square, pulseWidth: 0.5, fullBandLimit: -42, below10kLimit: -75),
        AliasCase(waveform: .pulse, pulseWidth: 0.25, fullBandLimit: -35, below10kLimit: -75),
        AliasCase(waveform: .pulse, pulseWidth: 0.1, fullBandLimit: -43, below10kLimit: -68),
        AliasCase(waveform: .triangle, pulseWidth: 0.5, fullBandLimit: -50, below10kLimit: -70),
        AliasCase(waveform: .sine, pulseWidth: 0.5, fullBandLimit: -85, below10kLimit: -85),
    ]

    @Test(arguments: aliasCases)
    func aliasEnergyAt2637HzIsFarBelowTheHarmonics(_ c: AliasCase) {
        let signal = Self.render(c.waveform, pulseWidth: c.pulseWidth)
        let full = Spectrum.aliasToHarmonicRatio(signal, fundamental: 2637, sampleRate: Self.sampleRate)
        let low = Spectrum.aliasToHarmonicRatio(signal, fundamental: 2637, sampleRate: Self.sampleRate, bandLimit: 10_000)
        print("alias \(c.testDescription): full band \(String(format: "%.1f", full)) dB, below 10 kHz \(String(format: "%.1f", low)) dB")
        #expect(full <= c.fullBandLimit)
        #expect(low <= c.below10kLimit)
    }

    @Test func theMeasurementSeesTheAliasesOfANaiveSaw() {
        // Faust's figures for a naive saw: −11.7 dB full band, −16.1 dB below 10 kHz.
        let naive = Self.naiveSaw(frequency: 2637, count: 1 << 16)
        let full = Spectrum.aliasToHarmonicRatio(naive, fundamental: 2637, sampleRate: Self.sampleRate)
        let low = Spectrum.aliasToHarmonicRatio(naive, fundamental: 2637, sampleRate: Self.sampleRate, bandLimit: 10_000)
        print("alias naive saw: full band \(full) dB, below 10 kHz \(low) dB")
        #expect(full > -14 && full < -9)
        #expect(low > -19 && low < -13)
    }

    /// Harmonic m of a saw of exact period 48 samples (1 kHz at 48 kHz), in dB relative to the ideal 2/(πm).
    static func sawHarmonicGain(_ m: Int) -> Double {
        var osc = BandLimitedOscillator(waveform: .saw, frequency: 1000)
        osc.prepare(spec)
        let n = 4800
        let signal = Render.generate(&osc, count: n)
        let amplitude = Spectrum.magnitude(of: signal, at: Double(1000 * m), sampleRate: sampleRate) * 2 / Double(n)
        return 20 * log10(amplitude / (2 / (Double.pi * Double(m))))
    }

    @Test func sawHarmonicsFollowTheIdealSpectrumWithTheDocumentedRollOff() {
        #expect(abs(Self.sawHarmonicGain(1)) < 0.05)
        #expect(abs(Self.sawHarmonicGain(3)) < 0.3)
        // The cubic B-spline kernel's response sinc⁴(f/fs): −2.5 dB at 10 kHz, −10.6 dB at 20 kHz.
        let at10k = Self.sawHarmonicGain(10)
        let at20k = Self.sawHarmonicGain(20)
        #expect(at10k < -1.5 && at10k > -3.5, "10 kHz: \(at10k) dB")
        #expect(at20k < -8 && at20k > -13, "20 kHz: \(at20k) dB")
    }

    @Test func sineSweptEverySampleStaysContinuous() {
        var osc = BandLimitedOscillator(waveform: .sine, frequency: 100)
        osc.prepare(Self.spec)
        var previous = osc.nextSample()
        var worst: Float = 0
        for i in 0..<48_000 {
            let hz = 100 * pow(50, Float(i) / 48_000)     // 100 Hz → 5 kHz in one second
            osc.setFrequency(hz)
            let y = osc.nextSample()
            worst = max(worst, abs(y - previous) / (2 * Float.pi * hz / 48_000))
            previous = y
        }
        // A step never exceeds the slope bound of a sine at the current frequency (plus rounding).
        #expect(worst < 1.01)
    }

    @Test func phaseResetStartsThePeriodWhereAsked() {
        var osc = BandLimitedOscillator(waveform: .sine, frequency: 440)
        osc.prepare(Self.spec)
        _ = Render.generate(&osc, count: 1000)
        osc.resetPhase(to: 0.25)
        #expect(abs(osc.nextSample() - 1) < 1e-6)
        osc.resetPhase(to: 1.5)           // wrapped to 0.5
        #expect(abs(osc.phase - 0.5) < 1e-6)
        osc.reset()
        #expect(osc.phase == 0)
    }

    @Test func outputIsPeriodicAtTheRequestedFrequency() {
        // Mean crossing interval of a 220 Hz saw's downward jumps equals 48000/220 samples.
        for waveform in [Waveform.saw, .square, .pulse, .triangle, .sine, .reverseSaw] {
            var osc = BandLimitedOscillator(waveform: waveform, frequency: 220, pulseWidth: 0.3)
            osc.prepare(Self.spec)
            let signal = Render.generate(&osc, count: 48_000)
            let spectrumPeak = [219.0, 220.0, 221.0].map { Spectrum.magnitude(of: signal, at: $0, sampleRate: Self.sampleRate) }
            #expect(spectrumPeak[1] > spectrumPeak[0] * 5 && spectrumPeak[1] > spectrumPeak[2] * 5, "\(waveform)")
            // A DC-free pulse of width 0.3 swings from −0.6 to +1.4; the others stay near ±1.
            let bound: Float = waveform == .pulse ? 1.45 : 1.1
            #expect(signal.allSatisfy { abs($0) < bound }, "\(waveform)")
        }
    }

    @Test func pulseWidthGlidesInsteadOfJumping() {
        var osc = BandLimitedOscillator(waveform: .pulse, frequency: 100, pulseWidth: 0.5)
        osc.prepare(Self.spec)
        osc.setPulseWidth(0.9)
        _ = osc.nextSample()
        #expect(osc.pulseWidth > 0.5 && osc.pulseWidth < 0.52)
        _ = Render.generate(&osc, count: 240)            // 5 ms
        #expect(abs(osc.pulseWidth - 0.9) < 1e-6)
        osc.setPulseWidth(5)                             // clamped to 0.99
        _ = Render.generate(&osc, count: 480)
        #expect(abs(osc.pulseWidth - 0.99) < 1e-6)
    }

    @Test func detunedBankSpreadsByTheRequestedCents() {
        var bank = DetunedOscillatorBank(waveform: .saw, frequency: 440, detuneCents: 10)
        bank.prepare(Self.spec)
        let f = bank.frequencies
        #expect(abs(f.centre - 440) < 1e-3)
        #expect(abs(Double(f.high) - 440 * pow(2, 10.0 / 1200)) < 1e-3)
        #expect(abs(Double(f.low) - 440 * pow(2, -10.0 / 1200)) < 1e-3)
        bank.setFrequency(220)
        #expect(abs(Double(bank.frequencies.high) - 220 * pow(2, 10.0 / 1200)) < 1e-3)

        // At zero detune and equal phases the mix equals a single oscillator.
        var flat = DetunedOscillatorBank(waveform: .triangle, frequency: 330, detuneCents: 0)
        var single = BandLimitedOscillator(waveform: .triangle, frequency: 330)
        flat.prepare(Self.spec)
        single.prepare(Self.spec)
        let a = Render.generate(&flat, count: 2048)
        let b = Render.generate(&single, count: 2048)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-5 })

        // Detuned voices beat: the mix's short-term level moves, a single voice's does not.
        var wide = DetunedOscillatorBank(waveform: .sine, frequency: 440, detuneCents: 20)
        wide.prepare(Self.spec)
        let mix = Render.generate(&wide, count: 48_000)
        let rms = stride(from: 0, to: 48_000, by: 2400).map { start in
            (mix[start..<(start + 2400)].reduce(0) { $0 + $1 * $1 } / 2400).squareRoot()
        }
        #expect(rms.max()! - rms.min()! > 0.2)
    }
}
