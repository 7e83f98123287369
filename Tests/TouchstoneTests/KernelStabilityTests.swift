import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// Random parameter sweeps (seeded) over every kernel: the output must stay finite, never subnormal,
/// and bounded, for any combination of parameters in their documented ranges.
@Suite struct KernelStabilityTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    static func check(_ samples: [Float], bound: Float, _ what: String) {
        #expect(Render.isClean(samples), "\(what): non-finite or subnormal output")
        #expect(samples.allSatisfy { abs($0) <= bound }, "\(what): beyond ±\(bound)")
    }

    @Test func oscillatorsWithFrequencyAndWidthSweptEverySample() {
        var random = SeededRandom(seed: 101)
        for waveform in Waveform.allCases {
            var osc = BandLimitedOscillator(waveform: waveform, frequency: 100)
            osc.prepare(Self.spec)
            var out: [Float] = []
            for _ in 0..<40 {
                let hz = random.float(0...24_000)
                let width = random.float(0.01...0.99)
                osc.setPulseWidth(width)
                for _ in 0..<256 {
                    osc.setFrequency(hz * random.float(0.9...1.1))
                    out.append(osc.nextSample())
                }
            }
            Self.check(out, bound: 2.5, "\(waveform)")
        }
        var bank = DetunedOscillatorBank(waveform: .pulse, frequency: 100, detuneCents: 50)
        bank.prepare(Self.spec)
        var out: [Float] = []
        for _ in 0..<40 {
            bank.setDetune(cents: random.float(0...100))
            bank.waveform = Waveform.allCases.randomElement(using: &random)!
            bank.setFrequency(random.float(1...20_000))
            out += Render.generate(&bank, count: 256)
        }
        Self.check(out, bound: 2.5, "detuned bank")
    }

    @Test func lfosTremolosAndGlidesWithRandomSettings() {
        var random = SeededRandom(seed: 202)
        var lfo = LFO()
        lfo.prepare(Self.spec)
        var tremolo = Tremolo()
        tremolo.prepare(Self.spec)
        var glide = Glide(mode: .time(0.05), frequency: 440)
        glide.prepare(Self.spec)
        var lfoOut: [Float] = [], tremOut: [Float] = [], glideOut: [Float] = []
        for _ in 0..<200 {
            lfo.waveform = Waveform.allCases.randomElement(using: &random)!
            lfo.pulseWidth = random.float(0...1)
            let rate: LFORate = random.next() % 2 == 0
                ? .hertz(random.double(0...200))
                : .synced(NoteDivision.allDivisions.randomElement(using: &random)!, bpm: random.double(20...300))
            lfo.setRate(rate)
            lfo.setPhaseOffset(random.double(0...1))
            lfoOut += Render.generate(&lfo, count: 128)

            tremolo.setWaveform(Waveform.allCases.randomElement(using: &random)!)
            tremolo.setRate(rate)
            tremolo.setDepth(random.float(0...1))
            var block = (0..<128).map { _ in random.float(-1...1) }
            block.withUnsafeMutableBufferPointer { tremolo.process($0) }
            tremOut += block

            switch random.next() % 3 {
            case 0: glide.mode = .off
            case 1: glide.mode = .time(random.double(0...2))
            default: glide.mode = .rate(semitonesPerSecond: random.double(0.1...500))
            }
            glide.setTarget(frequency: random.double(8...20_000))
            glideOut += Render.generate(&glide, count: 128)
        }
        Self.check(lfoOut, bound: 1, "LFO")
        Self.check(tremOut, bound: 1, "tremolo")
        Self.check(glideOut, bound: 20_001, "glide")
        #expect(glideOut.allSatisfy { $0 >= 7.9 })
    }

    @Test func envelopesWithRandomGatesAndParameters() {
        var random = SeededRandom(seed: 303)
        for shape in EnvelopeShape.allCases {
            var env = ADSR()
            env.prepare(Self.spec)
            var out: [Float] = []
            for _ in 0..<2_000 {
                let p = ADSR.Parameters(attack: random.double(0...0.05), decay: random.double(0...0.05),
                                        sustain: random.double(0...1), release: random.double(0...0.05), shape: shape)
                switch random.next() % 5 {
                case 0: env.gateOn()
                case 1: env.gateOff()
                case 2: env.kill(fadeTime: random.double(0...0.01))
                case 3: env.setParameters(p)
                default: break
                }
                out += (0..<Int(random.next() % 200)).map { _ in env.nextSample() }
            }
            Self.check(out, bound: 1, "ADSR \(shape)")
            #expect(out.allSatisfy { $0 >= 0 })
        }
    }

    @Test func filtersWithRandomModesCutoffsAndResonance() {
        var random = SeededRandom(seed: 404)
        var svf = StateVariableFilter()
        svf.prepare(Self.spec)
        var stereo = StereoStateVariableFilter()
        stereo.prepare(Self.spec)
        var formant = FormantFilter()
        formant.prepare(Self.spec)
        var svfOut: [Float] = [], stereoOut: [Float] = [], formantOut: [Float] = []
        for _ in 0..<300 {
            let mode = FilterMode.allCases.randomElement(using: &random)!
            let cutoff = random.float(1...24_000), q = random.float(0.1...50)
            svf.setMode(mode)
            stereo.setMode(mode)
            if random.next() % 2 == 0 {
                svf.setCutoff(cutoff); svf.setQ(q)
                stereo.setCutoff(cutoff); stereo.setQ(q)
            } else {
                svf.setImmediately(cutoff: cutoff, q: q)
                stereo.setImmediately(cutoff: cutoff, q: q)
            }
            formant.setFormants(f1: random.float(50...4_000), f2: random.float(300...8_000))
            formant.setQ(random.float(0.1...50))
            formant.setMix(dry: random.float(0...1), f1: random.float(0...1), f2: random.float(0...1))
            var block = (0..<256).map { _ in random.float(-1...1) }
            if random.next() % 4 == 0 { block = [Float](repeating: 0, count: 256) }   // silence: decays
            var left = block, right = block.map { -$0 }, formantBlock = block
            block.withUnsafeMutableBufferPointer { svf.process($0) }
            left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in stereo.process(left: l, right: r) } }
            formantBlock.withUnsafeMutableBufferPointer { formant.process($0) }
            svfOut += block
            stereoOut += left + right
            formantOut += formantBlock
        }
        // Q 50 gives a band-pass/peak gain of 50 and ringing beyond it on random input.
        Self.check(svfOut, bound: 2_000, "SVF")
        Self.check(stereoOut, bound: 2_000, "stereo SVF")
        Self.check(formantOut, bound: 200, "formant")
    }

    @Test func smoothersWithRandomTargets() {
        var random = SeededRandom(seed: 505)
        for style in SmoothingStyle.allCases {
            var p = SmoothedParameter(initialValue: 1, style: style, rampTime: 0.005)
            p.prepare(sampleRate: 48_000)
            var out: [Float] = []
            for _ in 0..<500 {
                p.setTarget(random.float(-1_000...20_000))
                if random.next() % 3 == 0 { p.setRampTime(random.double(0...0.1)) }
                for _ in 0..<Int(random.next() % 300) { out.append(p.next()) }
                if random.next() % 5 == 0 { _ = p.skip(Int(random.next() % 1_000)) }
            }
            Self.check(out, bound: 20_000, "SmoothedParameter \(style)")
        }
    }
}
