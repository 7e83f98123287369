import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// The lanes are eight scalar oscillators side by side: every lane must produce what a
/// `BandLimitedOscillator` with the same waveform, frequency and phase produces, sample for sample,
/// including through frequency changes every sample (glides) and at the extremes of the range.
@Suite struct BandLimitedOscillatorLanesTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
    static let waveforms: [Waveform] = [.sine, .triangle, .saw, .square, .pulse, .reverseSaw]

    /// Largest difference between the lanes and eight scalar oscillators over `count` samples, with the
    /// frequencies moved every sample by `frequencyAt(lane, sample)`.
    static func largestDifference(
        _ waveform: Waveform, start: SIMD8<Float>, phases: SIMD8<Float>, widths: SIMD8<Float>, count: Int,
        frequencyAt: (Int, Int) -> Float
    ) -> Float {
        var lanes = BandLimitedOscillatorLanes(waveform: waveform, frequencies: start, phases: phases)
        lanes.pulseWidths = widths
        lanes.prepare(spec)
        var scalars = (0..<8).map {
            BandLimitedOscillator(waveform: waveform, frequency: start[$0], phase: phases[$0], pulseWidth: widths[$0])
        }
        for i in scalars.indices { scalars[i].prepare(spec) }
        var worst: Float = 0
        for n in 0..<count {
            var hz = SIMD8<Float>()
            for lane in 0..<8 { hz[lane] = frequencyAt(lane, n) }
            lanes.setFrequencies(hz)
            for lane in 0..<8 { scalars[lane].setFrequency(hz[lane]) }
            let y = lanes.nextSample()
            for lane in 0..<8 {
                let expected = scalars[lane].nextSample()
                worst = max(worst, abs(y[lane] - expected))
            }
        }
        return worst
    }

    @Test(arguments: waveforms)
    func steadyPitchesMatchScalarOscillators(_ waveform: Waveform) {
        var random = SeededRandom(seed: 7)
        var start = SIMD8<Float>()
        var phases = SIMD8<Float>()
        var widths = SIMD8<Float>()
        for lane in 0..<8 {
            // From sub-bass to near the 0.45·fs ceiling, where both BLEP regions overlap.
            start[lane] = Float(30 * pow(2, random.uniform() * 9.4))
            phases[lane] = Float(random.uniform())
            widths[lane] = Float(0.05 + 0.9 * random.uniform())
        }
        start[7] = 21_000  // clamped to 0.45·fs by both
        start[6] = 0       // a stopped lane stays put, silent of band-limiting work
        let difference = Self.largestDifference(waveform, start: start, phases: phases, widths: widths, count: 48_000) { lane, _ in
            start[lane]
        }
        // Float rounding of the phase sums only: far below one 16-bit step (3e-5).
        #expect(difference < 2e-5, "\(waveform): largest lane difference \(difference)")
    }

    @Test(arguments: waveforms)
    func glidesEverySampleMatchScalarOscillators(_ waveform: Waveform) {
        let difference = Self.largestDifference(
            waveform, start: SIMD8(repeating: 100), phases: SIMD8(0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7),
            widths: SIMD8(repeating: 0.3), count: 24_000
        ) { lane, n in
            // Exponential sweeps up and down at different speeds, one per lane.
            let t = Float(n) / 24_000
            return 100 * powf(2, Float(lane + 1) * (lane.isMultiple(of: 2) ? t : 1 - t))
        }
        #expect(difference < 2e-5, "\(waveform): largest lane difference \(difference)")
    }

    /// The phase's wrap as a compare, a mask and a subtraction (`p − (p ≥ 1 ? 1 : 0)`) gives the bits
    /// the blend of `p` and `p − 1` gave: the phases of every lane, sample after sample, against the
    /// blend computed here on the lanes' own increments (read as the first step from phase 0), from
    /// sub-audio to the 0.45·fs clamp and a stopped lane.
    @Test func phaseWrapEqualsTheBlendBitForBit() {
        let hz = SIMD8<Float>(0, 0.3, 27.5, 55 * 37.7, 4_186, 11_999, 12_001, 21_600)
        var lanes = BandLimitedOscillatorLanes(waveform: .saw, frequencies: hz)
        lanes.prepare(Self.spec)
        var probe = lanes
        _ = probe.nextSaw()
        let increments = probe.phase          // 0 + increment, exact
        var reference = lanes.phase
        for n in 0..<200_000 {
            _ = lanes.nextSaw()
            let p = reference + increments
            reference = p.replacing(with: p - 1, where: p .>= 1)
            let same = unsafeBitCast(lanes.phase, to: SIMD8<UInt32>.self) .== unsafeBitCast(reference, to: SIMD8<UInt32>.self)
            if !all(same) {
                Issue.record("sample \(n): phases \(lanes.phase), blend \(reference)")
                return
            }
        }
    }

    /// Skipping keeps the phase where rendering would have left it.
    /// `nextSawUnbranched()` gives `nextSaw()`'s bits, below fs/4 (one residual per lane) and above it (both
    /// sides), and `residualSampleFraction` is the share of samples in which `nextSaw()` takes its residual
    /// branch, within 0.03 of it, for low, middle and high groups.
    @Test(arguments: [SIMD8<Float>(55, 62, 70, 78, 87, 98, 110, 123), SIMD8(880, 932, 988, 1_047, 1_109, 1_175, 1_245, 1_319),
                      SIMD8(1_397, 1_480, 1_568, 1_661, 1_760, 1_865, 1_976, 2_093), SIMD8(30, 440, 5_000, 11_000, 12_500, 17_000, 21_000, 23_000)])
    func unbranchedSawMatchesTheBranchedSaw(_ hz: SIMD8<Float>) {
        var branched = BandLimitedOscillatorLanes(waveform: .saw, frequencies: hz, phases: SIMD8(0, 0.13, 0.26, 0.39, 0.52, 0.65, 0.78, 0.91))
        branched.prepare(Self.spec)
        var unbranched = branched
        var residualSamples = 0
        let count = 48_000
        for _ in 0..<count {
            let t = branched.phase
            let reach = 2 * hz / Float(Self.spec.sampleRate)
            if ((t .< reach) .| (t .> 1 - reach)) != SIMDMask(repeating: false) { residualSamples += 1 }
            let a = branched.nextSaw(), b = unbranched.nextSawUnbranched()
            #expect(unsafeBitCast(a, to: SIMD8<UInt32>.self) == unsafeBitCast(b, to: SIMD8<UInt32>.self), "\(a) against \(b)")
            if unsafeBitCast(a, to: SIMD8<UInt32>.self) != unsafeBitCast(b, to: SIMD8<UInt32>.self) { return }
        }
        if hz.max() < 12_000 {
            let measured = Float(residualSamples) / Float(count)
            #expect(abs(branched.residualSampleFraction - measured) < 0.03, "predicted \(branched.residualSampleFraction), measured \(measured)")
        }
    }

    @Test func skipLandsOnTheRenderedPhase() {
        var rendered = BandLimitedOscillatorLanes(waveform: .saw, frequencies: SIMD8(55, 110, 220, 440, 880, 1760, 3520, 7040))
        rendered.prepare(Self.spec)
        var skipped = rendered
        for _ in 0..<10_000 { _ = rendered.nextSaw() }
        skipped.skip(10_000)
        let phaseDifference = rendered.phase - skipped.phase
        let sampleDifference = rendered.nextSaw() - skipped.nextSaw()
        for lane in 0..<8 {
            #expect(abs(phaseDifference[lane]) < 1e-3, "lane \(lane): phase drift \(phaseDifference[lane]) after 10 000 samples")
            #expect(abs(sampleDifference[lane]) < 5e-3)
        }
    }

    /// NaN, negative and huge frequencies are clamped like the scalar oscillator's: output stays finite
    /// and bounded.
    @Test func hostileFrequenciesStayFiniteAndBounded() {
        var lanes = BandLimitedOscillatorLanes(waveform: .square)
        lanes.prepare(Self.spec)
        lanes.setFrequencies(SIMD8(.nan, -100, .infinity, 1e9, 0, 24_000, 1, 440))
        for waveform in Self.waveforms {
            lanes.waveform = waveform
            for _ in 0..<4_800 {
                let y = lanes.nextSample()
                for lane in 0..<8 {
                    #expect(y[lane].isFinite && abs(y[lane]) < 2.1, "\(waveform) lane \(lane): \(y[lane])")
                }
            }
        }
        #expect(lanes.frequencies[0] == 0)
        #expect(lanes.frequencies[1] == 0)
        #expect(abs(lanes.frequencies[2] - 21_600) < 0.01)
    }

    /// The scalar oscillator clamps the same way: NaN stops it, +∞ runs it at the ceiling.
    @Test(arguments: [Float.nan, -100, .infinity, 1e9])
    func scalarOscillatorStaysFiniteForHostileFrequencies(_ hz: Float) {
        for waveform in Self.waveforms {
            var osc = BandLimitedOscillator(waveform: waveform, frequency: 440)
            osc.prepare(Self.spec)
            osc.setFrequency(hz)
            for _ in 0..<480 {
                let y = osc.nextSample()
                #expect(y.isFinite && abs(y) < 2.1, "\(waveform) at \(hz) Hz: \(y)")
            }
            let expected: Float = hz > 0 ? 21_600 : 0
            #expect(abs(osc.frequency - expected) < 0.01, "\(hz) Hz became \(osc.frequency) Hz")
        }
    }

    /// Bank lanes are eight `DetunedOscillatorBank`s: same mean of three detuned oscillators per lane,
    /// through a detune change and per-sample glides.
    @Test(arguments: waveforms)
    func bankLanesMatchScalarBanks(_ waveform: Waveform) {
        let start = SIMD8<Float>(55, 110, 196, 261.6, 440, 987.8, 3_000, 0)
        let phases = (SIMD8<Float>(repeating: 0.1), SIMD8<Float>(repeating: 0.45), SIMD8<Float>(repeating: 0.8))
        var lanes = DetunedOscillatorBankLanes(waveform: waveform, frequencies: start, detuneCents: 11, phases: phases)
        lanes.prepare(Self.spec)
        var scalars = (0..<8).map {
            DetunedOscillatorBank(waveform: waveform, frequency: start[$0], detuneCents: 11, phases: (0.1, 0.45, 0.8))
        }
        for i in scalars.indices { scalars[i].prepare(Self.spec) }
        var worst: Float = 0
        for n in 0..<24_000 {
            if n == 12_000 {
                lanes.setDetune(cents: 25)
                for i in scalars.indices { scalars[i].setDetune(cents: 25) }
            }
            let glide = powf(2, Float(n) / 24_000)
            lanes.setFrequencies(start * glide)
            for lane in 0..<8 { scalars[lane].setFrequency(start[lane] * glide) }
            let y = lanes.nextSample()
            for lane in 0..<8 { worst = max(worst, abs(y[lane] - scalars[lane].nextSample())) }
        }
        #expect(lanes.detuneCents == 25)
        #expect(worst < 2e-5, "\(waveform): largest lane difference \(worst)")
    }
}
