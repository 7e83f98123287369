import Foundation
import Touchstone

/// Per-kernel costs in ns per sample (one channel, 256-frame blocks, 48 kHz), for budgeting engines.
enum KernelBench {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
    static let blocks = 4_000                      // 1 024 000 samples ≈ 21 s of audio

    /// Times `body` over `blocks` blocks and returns ns per sample.
    static func time(_ body: (UnsafeMutableBufferPointer<Float>) -> Void) -> Double {
        var buffer = [Float](repeating: 0, count: 256)
        var sink: Float = 0
        let start = cpuSeconds()
        buffer.withUnsafeMutableBufferPointer { b in
            for _ in 0..<blocks {
                body(b)
                sink += b[17]
            }
        }
        let seconds = cpuSeconds() - start
        if sink.isNaN { print("") }                // keeps the work observable
        return seconds / Double(blocks * 256) * 1e9
    }

    static func report(_ name: String, _ ns: Double) {
        print("  " + name.padding(toLength: 54, withPad: " ", startingAt: 0) + String(format: "%6.2f ns/sample", ns))
    }

    static func run() {
        print("kernel costs (ns per sample, 256-frame blocks, 48 kHz):")
        for waveform in [Waveform.saw, .square, .pulse, .triangle, .sine] {
            var osc = BandLimitedOscillator(waveform: waveform, frequency: 220, pulseWidth: 0.3)
            osc.prepare(spec)
            report("BandLimitedOscillator \(waveform) generate", time { osc.generate(into: $0) })
        }
        var bank = DetunedOscillatorBank(waveform: .saw, frequency: 220, detuneCents: 8)
        bank.prepare(spec)
        report("DetunedOscillatorBank saw (3 oscillators)", time { bank.generate(into: $0) })

        var noise = SystemRandomNumberGenerator()
        let input = (0..<256).map { _ in Float.random(in: -1...1, using: &noise) }
        func withInput(_ body: @escaping (UnsafeMutableBufferPointer<Float>) -> Void) -> (UnsafeMutableBufferPointer<Float>) -> Void {
            { b in
                input.withUnsafeBufferPointer { src in _ = b.update(fromContentsOf: src) }
                body(b)
            }
        }
        var copyOnly = time(withInput { _ in })
        report("(input copy, subtracted below)", copyOnly)
        copyOnly = max(0, copyOnly)

        var svf = StateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 5)
        svf.prepare(spec)
        report("StateVariableFilter low-pass, settled", time(withInput { svf.process($0) }) - copyOnly)
        var moving = StateVariableFilter(mode: .bandPass, cutoff: 2_000, q: 5)
        moving.prepare(spec)
        var up = true
        report("StateVariableFilter band-pass, cutoff gliding", time(withInput { b in
            up.toggle()
            moving.setCutoff(up ? 4_000 : 500)
            moving.process(b)
        }) - copyOnly)
        var audioRate = StateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 5)
        audioRate.prepare(spec)
        var lfo = LFO(waveform: .sine, rate: .hertz(3))
        lfo.prepare(spec)
        report("StateVariableFilter, cutoff set every sample (+LFO)", time(withInput { b in
            for i in b.indices {
                audioRate.setImmediately(cutoff: 1_000 + 800 * lfo.nextSample(), q: 5)
                b[i] = audioRate.processSample(b[i], as: LowPassResponse.self)
            }
        }) - copyOnly)
        var stereo = StereoStateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 5)
        stereo.prepare(spec)
        var right = [Float](repeating: 0, count: 256)
        report("StereoStateVariableFilter (per channel)", time(withInput { b in
            right.withUnsafeMutableBufferPointer { r in stereo.process(left: b, right: r) }
        }) / 2 - copyOnly)
        var formant = FormantFilter(vowel: .a, q: 8, mix: (0.2, 1, 0.8))
        formant.prepare(spec)
        report("FormantFilter settled", time(withInput { formant.process($0) }) - copyOnly)
        var tremolo = Tremolo(waveform: .square, rate: .synced(.eighth, bpm: 120), depth: 0.7)
        tremolo.prepare(spec)
        report("Tremolo square", time(withInput { tremolo.process($0) }) - copyOnly)
        var envelope = ADSR(ADSR.Parameters(attack: 0.01, decay: 0.2, sustain: 0.7, release: 0.5))
        envelope.prepare(spec)
        envelope.gateOn()
        report("ADSR generate (sustaining)", time { envelope.generate(into: $0) })
        var lfo2 = LFO(waveform: .triangle, rate: .hertz(5))
        lfo2.prepare(spec)
        report("LFO triangle generate", time { lfo2.generate(into: $0) })
        var smoothed = SmoothedParameter(initialValue: 100, style: .multiplicative, rampTime: 0.002)
        smoothed.prepare(sampleRate: 48_000)
        report("SmoothedParameter multiplicative, always gliding", time { b in
            up.toggle()
            smoothed.setTarget(up ? 5_000 : 100)
            for i in b.indices { b[i] = smoothed.next() }
        })

        // Effects and dynamics (stereo ones per frame: both channels).
        var rightInput = [Float](repeating: 0, count: 256)
        let reverb = FeedbackDelayNetworkReverb(decayTime: 4, size: 1, damping: 0.4, mix: 1)
        reverb.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        report("FDN reverb process (per frame)", time(withInput { b in
            rightInput.withUnsafeMutableBufferPointer { r in
                _ = r.update(fromContentsOf: UnsafeBufferPointer(b))
                reverb.process(left: b, right: r)
            }
        }) - copyOnly)
        report("FDN reverb processFrame loop (per frame)", time(withInput { b in
            for i in b.indices {
                let out = reverb.processFrame(left: b[i], right: b[i])
                b[i] = out.left + out.right
            }
        }) - copyOnly)
        let limiter = BrickwallLimiter(ceiling: -6, releaseTime: 0.1)
        limiter.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        report("BrickwallLimiter (true peak), limiting noise (per frame)", time(withInput { b in
            rightInput.withUnsafeMutableBufferPointer { r in
                _ = r.update(fromContentsOf: UnsafeBufferPointer(b))
                limiter.process(left: b, right: r)
            }
        }) - copyOnly)
        report("BrickwallLimiter (true peak), quiet input (per frame)", time(withInput { b in
            for i in b.indices {
                let out = limiter.processFrame(left: b[i] * 0.1, right: b[i] * -0.1)
                b[i] = out.left + out.right
            }
        }) - copyOnly)
        let samplePeakLimiter = BrickwallLimiter(ceiling: -6, releaseTime: 0.1, truePeak: false)
        samplePeakLimiter.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        report("BrickwallLimiter on sample peaks, limiting noise (per frame)", time(withInput { b in
            rightInput.withUnsafeMutableBufferPointer { r in
                _ = r.update(fromContentsOf: UnsafeBufferPointer(b))
                samplePeakLimiter.process(left: b, right: r)
            }
        }) - copyOnly)
        let delay = DelayLine(maximumDelay: 2.1, delayTime: 0.375, feedback: 0.4, mix: 0.3)
        delay.prepare(spec)
        report("DelayLine 375 ms, feedback 0.4", time(withInput { delay.process($0) }) - copyOnly)
        var fuzz = Fuzz(drive: 18, outputLevel: -6, mix: 0.8)
        fuzz.prepare(spec)
        report("Fuzz 18 dB", time(withInput { fuzz.process($0) }) - copyOnly)
    }
}
