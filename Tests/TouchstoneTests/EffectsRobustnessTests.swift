import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// Seeded random sweeps over every parameter range: output is always finite and
/// never denormal (also in the silent tail, without flush-to-zero), and after a
/// NaN the kernel recovers on `reset()` (or never propagates it, as documented).
@Suite struct EffectsRobustnessTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2)

    /// Input: noise and sines at random levels up to +12 dBFS, then silence.
    static func stimulus(_ random: inout SeededRandom, count: Int = 4_096, silence: Int = 8_192) -> [Float] {
        let level = pow(10, random.float(-60...12) / 20)
        let frequency = Double(random.float(20...20_000))
        let noisy = random.next() % 2 == 0
        var signal = (0..<count).map { n -> Float in
            level * (noisy ? random.float(-1...1) : Float(sin(2 * Double.pi * frequency * Double(n) / 48_000)))
        }
        signal += [Float](repeating: 0, count: silence)
        return signal
    }

    static func allClean(_ samples: [Float]) -> Bool { samples.allSatisfy(EffectsTestSignal.isClean) }

    static func nanBurst() -> [Float] { [1, .nan, 0.5, .infinity, -0.5] + [Float](repeating: 0.2, count: 300) }

    @Test func toneFilter() {
        var random = SeededRandom(seed: 1)
        for _ in 0..<200 {
            var kernel = ToneFilter(cutoff: random.float(20...20_000))
            kernel.prepare(Self.spec)
            let out = EffectsTestSignal.render(&kernel, Self.stimulus(&random))
            #expect(Self.allClean(out))
            #expect(out.last == 0, "the tail decays to exact silence")
        }
        var kernel = ToneFilter(cutoff: 1_000)
        kernel.prepare(Self.spec)
        _ = EffectsTestSignal.render(&kernel, Self.nanBurst())
        kernel.reset()
        #expect(Self.allClean(EffectsTestSignal.render(&kernel, Self.stimulus(&random))))
    }

    @Test func fuzz() {
        var random = SeededRandom(seed: 2)
        for _ in 0..<200 {
            var kernel = Fuzz(drive: random.float(0...48), outputLevel: random.float(-48...12), mix: random.float(0...1))
            kernel.prepare(Self.spec)
            #expect(Self.allClean(EffectsTestSignal.render(&kernel, Self.stimulus(&random))))
        }
        // Stateless: a NaN affects its own sample only.
        var kernel = Fuzz(drive: 30)
        kernel.prepare(Self.spec)
        let out = EffectsTestSignal.render(&kernel, Self.nanBurst())
        #expect(Self.allClean(Array(out[5...])))
    }

    @Test func softClip() {
        var random = SeededRandom(seed: 3)
        for _ in 0..<200 {
            var kernel = SoftClipDistortion(gain: random.float(-40...20), mix: random.float(0...1))
            kernel.prepare(Self.spec)
            #expect(Self.allClean(EffectsTestSignal.render(&kernel, Self.stimulus(&random))))
        }
        var kernel = SoftClipDistortion(gain: 10, mix: 1)
        kernel.prepare(Self.spec)
        let out = EffectsTestSignal.render(&kernel, Self.nanBurst())
        #expect(Self.allClean(Array(out[5...])))
    }

    @Test func decimator() {
        var random = SeededRandom(seed: 4)
        for _ in 0..<200 {
            var kernel = Decimator(reductionFactor: random.float(1...256), bitDepth: random.float(1...24), mix: random.float(0...1))
            kernel.prepare(Self.spec)
            #expect(Self.allClean(EffectsTestSignal.render(&kernel, Self.stimulus(&random))))
        }
        // The held NaN is gone at the next capture (at most reductionFactor samples).
        var kernel = Decimator(reductionFactor: 8, bitDepth: 8, mix: 1)
        kernel.prepare(Self.spec)
        let out = EffectsTestSignal.render(&kernel, Self.nanBurst())
        #expect(Self.allClean(Array(out[8...])))
    }

    @Test func delayLine() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<100 {
            let kernel = DelayLine(maximumDelay: 1, delayTime: random.float(0...1), feedback: random.float(-0.99...0.99), mix: random.float(0...1))
            kernel.dampingCutoff = random.float(200...20_000)
            kernel.prepare(Self.spec)
            var k = kernel
            let out = EffectsTestSignal.render(&k, Self.stimulus(&random))
            #expect(Self.allClean(out))
        }
        // Long tail at the most feedback still never denormal.
        let kernel = DelayLine(maximumDelay: 0.1, delayTime: 0.0005, feedback: 0.99, mix: 1)
        kernel.dampingCutoff = 500
        kernel.prepare(Self.spec)
        var k = kernel
        var input = [Float](repeating: 0, count: 200_000)
        input[0] = 1
        let tail = EffectsTestSignal.render(&k, input)
        #expect(Self.allClean(tail))
        #expect(tail.suffix(1_000).allSatisfy { $0 == 0 })
        // NaN circulates in the loop until reset.
        _ = EffectsTestSignal.render(&k, Self.nanBurst())
        kernel.reset()
        #expect(Self.allClean(EffectsTestSignal.render(&k, Self.stimulus(&random))))
    }

    @Test func reverb() {
        var random = SeededRandom(seed: 6)
        for _ in 0..<24 {
            let kernel = FeedbackDelayNetworkReverb(
                decayTime: random.float(0.1...30), size: random.float(0.25...4),
                damping: random.float(0...1), mix: random.float(0...1))
            kernel.diffusion = random.float(0...0.75)
            kernel.prepare(Self.spec)
            var k = kernel
            let input = Self.stimulus(&random)
            let out = EffectsTestSignal.render(&k, left: input, right: input.reversed())
            #expect(Self.allClean(out.left) && Self.allClean(out.right))
        }
        let kernel = FeedbackDelayNetworkReverb(decayTime: 2)
        kernel.prepare(Self.spec)
        var k = kernel
        let burst = Self.nanBurst()
        _ = EffectsTestSignal.render(&k, left: burst, right: burst)
        kernel.reset()
        let input = Self.stimulus(&random)
        let out = EffectsTestSignal.render(&k, left: input, right: input)
        #expect(Self.allClean(out.left) && Self.allClean(out.right))
    }

    @Test func limiterAndSpikeProtector() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<100 {
            let kernel = BrickwallLimiter(ceiling: random.float(-60...0), releaseTime: random.float(0.005...2), lookahead: Double(random.float(0.0005...0.05)))
            kernel.prepare(Self.spec)
            var k = kernel
            let input = Self.stimulus(&random).map { $0 * 10 }
            let out = EffectsTestSignal.render(&k, left: input, right: input)
            #expect(Self.allClean(out.left) && Self.allClean(out.right))
            // Never propagates NaN: sanitised at the input.
            let burst = Self.nanBurst()
            let afterNaN = EffectsTestSignal.render(&k, left: burst, right: burst)
            #expect(Self.allClean(afterNaN.left) && Self.allClean(afterNaN.right))
        }
    }
}
