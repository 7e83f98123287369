import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// The delay line's and the fuzz's block paths (state held in locals) against
/// plain per-sample references written out here, on long random signals with
/// parameters moving mid-way.
@Suite struct EffectsBlockPathTests {
    static let sampleRate: Float = 48_000
    static let spec = ProcessSpec(sampleRate: Double(sampleRate), maximumBlockSize: 512)

    /// w[n] = x[n] + fb·LP(y[n]), y[n] = w[n − d] (4-point Hermite), out = x + mix·(y − x),
    /// with every parameter eased per sample by its one-pole, as documented.
    struct ReferenceDelay {
        var ring: [Float]
        var write = 0
        var delay: Float, delayTarget: Float
        var feedback: Float, feedbackTarget: Float
        var mix: Float, mixTarget: Float
        let damping: Float
        var loop: Float = 0
        let longest: Float
        let delayCoefficient = 1 - exp(-1 / (0.05 * EffectsBlockPathTests.sampleRate))
        let parameterCoefficient = 1 - exp(-1 / (0.01 * EffectsBlockPathTests.sampleRate))

        init(maximumDelay: Double, delayTime: Float, feedback: Float, mix: Float, cutoff: Float) {
            var size = 4
            while size < Int((maximumDelay + 0.05) * Double(EffectsBlockPathTests.sampleRate)) + 4 { size <<= 1 }
            ring = [Float](repeating: 0, count: size)
            longest = Float(size - 3)
            delay = delayTime * EffectsBlockPathTests.sampleRate; delayTarget = delay
            self.feedback = feedback; feedbackTarget = feedback
            self.mix = mix; mixTarget = mix
            damping = 1 - exp(-2 * Float.pi * cutoff / EffectsBlockPathTests.sampleRate)
        }

        /// The value written `k` calls ago.
        func tap(_ k: Int) -> Float { ring[((write - k) % ring.count + ring.count) % ring.count] }

        mutating func process(_ x: Float, modulation: Float) -> Float {
            delay += delayCoefficient * (delayTarget - delay)
            feedback += parameterCoefficient * (feedbackTarget - feedback)
            mix += parameterCoefficient * (mixTarget - mix)
            let d = min(max(delay + modulation * EffectsBlockPathTests.sampleRate, 2), longest)
            let whole = Int(d)
            let y = HermiteInterpolation.interpolate(tap(whole - 1), tap(whole), tap(whole + 1), tap(whole + 2), at: d - Float(whole))
            loop += damping * (y - loop)
            ring[write] = x + feedback * loop
            write = (write + 1) % ring.count
            return x + mix * (y - x)
        }
    }

    @Test(arguments: [false, true])
    func delayLineMatchesTheReference(modulated: Bool) {
        var random = SeededRandom(seed: modulated ? 0xDE1A_0001 : 0xDE1A_0000)
        let block = DelayLine(maximumDelay: 0.5, delayTime: 0.0123, feedback: 0.6, mix: 0.4)
        let frame = DelayLine(maximumDelay: 0.5, delayTime: 0.0123, feedback: 0.6, mix: 0.4)
        for line in [block, frame] { line.dampingCutoff = 3_000; line.prepare(Self.spec) }
        var reference = ReferenceDelay(maximumDelay: 0.5, delayTime: 0.0123, feedback: 0.6, mix: 0.4, cutoff: 3_000)
        let count = 100_000
        let input = (0..<count).map { n in (n / 5_000) % 3 == 2 ? 0 : random.float(-1...1) }
        let modulation = (0..<count).map { n in modulated ? 0.002 * Float(sin(Double(n) * 0.0007)) : 0 }
        var output = input
        var worst: Float = 0
        var start = 0
        while start < count {
            let end = min(count, start + 1 + Int(random.next() % 512))
            if start >= 50_000 && start < 50_512 {  // glide the time, move feedback and mix
                for line in [block, frame] { line.delayTime = 0.0371; line.feedback = -0.8; line.mix = 0.9 }
                reference.delayTarget = 0.0371 * Self.sampleRate; reference.feedbackTarget = -0.8; reference.mixTarget = 0.9
            }
            output.withUnsafeMutableBufferPointer { out in
                modulation.withUnsafeBufferPointer { m in
                    let slice = UnsafeMutableBufferPointer(rebasing: out[start..<end])
                    if modulated {
                        block.process(slice, modulation: UnsafeBufferPointer(rebasing: m[start..<end]))
                    } else {
                        block.process(slice)
                    }
                }
            }
            for n in start..<end {
                let single = frame.processSample(input[n], modulation: modulation[n])
                #expect(single == output[n], "block and per-sample paths differ at \(n)")
                worst = max(worst, abs(output[n] - reference.process(input[n], modulation: modulation[n])))
            }
            start = end
        }
        print("delay line (modulated \(modulated)): largest difference from the reference \(worst)")
        #expect(worst < 1e-5)
    }

    /// The settled path (every parameter at its fixed point, taps read four frames at a time) against
    /// the per-sample path, bit for bit: delays shorter than four frames (never taken), shorter than a
    /// block (runs cut at `whole − 1`), longer than a block, runs across the ring's wrap, with the
    /// loop filter on and bypassed, and feedback and mix moved mid-way (unsettled, then settled again).
    @Test(arguments: [2.5, 4.25, 19.37, 600.5])
    func settledDelayBlockPathMatchesThePerSamplePath(delaySamples: Float) {
        var random = SeededRandom(seed: 0x5E77_1ED0 &+ UInt64(delaySamples * 4))
        for cutoff: Float in [20_000, 3_000] {
            let delayTime = delaySamples / Self.sampleRate
            let block = DelayLine(maximumDelay: 0.05, delayTime: delayTime, feedback: 0.7, mix: 0.6)
            let frame = DelayLine(maximumDelay: 0.05, delayTime: delayTime, feedback: 0.7, mix: 0.6)
            for line in [block, frame] { line.dampingCutoff = cutoff; line.prepare(Self.spec) }
            let count = 40_000  // the ring holds 8 192 samples: several wraps
            let input = (0..<count).map { _ in random.float(-1...1) }
            var output = input
            var start = 0
            while start < count {
                let end = min(count, start + 1 + Int(random.next() % 512))
                if start >= 20_000 && start < 20_512 {
                    for line in [block, frame] { line.feedback = -0.5; line.mix = 0.25 }
                }
                output.withUnsafeMutableBufferPointer { block.process(UnsafeMutableBufferPointer(rebasing: $0[start..<end])) }
                for n in start..<end {
                    #expect(frame.processSample(input[n]) == output[n],
                            "delay \(delaySamples), cutoff \(cutoff): block and per-sample paths differ at \(n)")
                }
                start = end
            }
        }
    }

    /// Right after a reset (the guarded stretch, one ring's worth of writes), a settled line whose oldest tap was
    /// written since the reset takes the settled path; against the per-sample path, bit for bit: resets mid-way,
    /// and feedback, mix and delay time moved inside the guarded stretch (unsettled, then settled again).
    @Test(arguments: [3.5, 130.25, 2_000.75])
    func settledDelayRightAfterAResetMatchesThePerSamplePath(delaySamples: Float) {
        var random = SeededRandom(seed: 0x7E5E_7D1A &+ UInt64(delaySamples * 4))
        let delayTime = delaySamples / Self.sampleRate
        let block = DelayLine(maximumDelay: 0.2, delayTime: delayTime, feedback: 0.6, mix: 0.5)
        let frame = DelayLine(maximumDelay: 0.2, delayTime: delayTime, feedback: 0.6, mix: 0.5)
        for line in [block, frame] { line.dampingCutoff = 5_000; line.prepare(Self.spec) }
        let count = 60_000  // the ring holds 16 384 samples: guarded for that long after each reset
        let input = (0..<count).map { _ in random.float(-1...1) }
        var output = input
        var start = 0
        var moved = false, reset = false
        while start < count {
            let end = min(count, start + 1 + Int(random.next() % 700))
            if start >= 4_000 && !moved {
                for line in [block, frame] { line.feedback = -0.4; line.mix = 0.8; line.delayTime = delayTime * 1.5 }
                moved = true
            }
            if start >= 30_000 && !reset {
                for line in [block, frame] { line.reset() }
                reset = true
            }
            output.withUnsafeMutableBufferPointer { block.process(UnsafeMutableBufferPointer(rebasing: $0[start..<end])) }
            for n in start..<end {
                #expect(frame.processSample(input[n]) == output[n],
                        "delay \(delaySamples): block and per-sample paths differ at \(n)")
            }
            start = end
        }
    }

    @Test func fuzzBlockPathMatchesTheTanhCurve() {
        var random = SeededRandom(seed: 0xF022)
        var block = Fuzz(drive: 18, outputLevel: -3, mix: 0.8)
        var frame = block
        block.prepare(Self.spec)
        frame.prepare(Self.spec)
        let count = 60_000
        let input = (0..<count).map { _ in random.float(-1.5...1.5) }
        var output = input
        var worst = 0.0
        var start = 0
        while start < count {
            let end = min(count, start + 1 + Int(random.next() % 512))
            if start >= 30_000 && start < 30_512 { block.drive = 36; frame.drive = 36 }
            if start >= 45_000 && start < 45_512 {  // level and mix glide while the drive is settled
                block.outputLevel = -12; frame.outputLevel = -12; block.mix = 0.3; frame.mix = 0.3
            }
            output.withUnsafeMutableBufferPointer { block.process(UnsafeMutableBufferPointer(rebasing: $0[start..<end])) }
            for n in start..<end {
                #expect(frame.processSample(input[n]) == output[n], "block and per-sample paths differ at \(n)")
                if n < 30_000 {  // settled: level · tanh(g·x) / tanh(g), mixed
                    let g = pow(10, 18.0 / 20), x = Double(input[n])
                    let wet = pow(10, -3.0 / 20) * Foundation.tanh(g * x) / Foundation.tanh(g)
                    worst = max(worst, abs(Double(output[n]) - (x + 0.8 * (wet - x))))
                }
            }
            start = end
        }
        print("fuzz: largest difference from tanh \(worst)")
        #expect(worst < 1e-5)
    }
}
