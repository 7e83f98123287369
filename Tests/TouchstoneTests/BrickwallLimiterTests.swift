import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

@Suite struct BrickwallLimiterTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 512, channelCount: 2)

    static func linear(_ decibels: Float) -> Float { pow(10, decibels / 20) }

    /// One seeded random stereo test signal of `count` frames.
    static func randomSignal(kind: Int, count: Int, using random: inout SeededRandom) -> (left: [Float], right: [Float]) {
        var left = [Float](repeating: 0, count: count)
        var right = [Float](repeating: 0, count: count)
        switch kind {
        case 0:  // sines, up to +40 dBFS, different per side
            let amplitude = linear(random.float(-20...40))
            let frequency = Double(random.float(20...20_000))
            let ratio = random.float(0...1.5)
            for n in 0..<count {
                let s = amplitude * Float(sin(2 * Double.pi * frequency * Double(n) / sampleRate))
                left[n] = s
                right[n] = -ratio * s
            }
        case 1:  // DC steps, up to ±100 (+40 dBFS), random hold lengths
            var n = 0
            while n < count {
                let level = random.float(-100...100) * (random.next() % 3 == 0 ? 0.01 : 1)
                let hold = Int(random.next() % 500) + 1
                for k in n..<min(n + hold, count) { left[k] = level; right[k] = level * 0.5 }
                n += hold
            }
        case 2:  // white noise up to +40 dBFS
            let amplitude = linear(random.float(-10...40))
            for n in 0..<count {
                left[n] = amplitude * random.float(-1...1)
                right[n] = amplitude * random.float(-1...1)
            }
        case 3:  // quiet signal with isolated +40 dBFS spikes (single samples and short bursts)
            for n in 0..<count {
                left[n] = 0.1 * random.float(-1...1)
                right[n] = 0.1 * random.float(-1...1)
            }
            for _ in 0..<Int(random.next() % 12 + 1) {
                let at = Int(random.next() % UInt64(count))
                let width = Int(random.next() % 4) + 1
                let sign: Float = random.next() % 2 == 0 ? 1 : -1
                for k in at..<min(at + width, count) {
                    if random.next() % 2 == 0 { left[k] = sign * 100 } else { right[k] = -sign * 100 }
                }
            }
        default:  // everything at once: sine + steps + spikes, asymmetric
            var level: Float = 0
            let amplitude = linear(random.float(-6...30))
            for n in 0..<count {
                if random.next() % 200 == 0 { level = random.float(-20...20) }
                let spike: Float = random.next() % 997 == 0 ? 100 : 0
                left[n] = amplitude * Float(sin(Double(n) * 0.05)) + level + spike
                right[n] = level * 0.3 - spike
            }
        }
        return (left, right)
    }

    /// Seeded property test: thousands of random signals (sines, DC steps, noise,
    /// +40 dBFS spikes), settings and mid-stream ceiling changes. No output sample
    /// ever exceeds the ceiling in force, and the rounding clamp never has to act. `live`: the same cases
    /// through the live stage (prepared for a live stream: 1 ms in all, a 22-frame look-ahead at 48 kHz).
    @Test(arguments: [false, true])
    func noOutputSampleExceedsTheCeiling(live: Bool) {
        var random = SeededRandom(seed: 0x11_3170)
        let cases = 4_000
        let frames = 2_048
        var violations = 0
        var clampEngagements = 0
        var casesWithCeilingChanges = 0
        var largestOvershootRatio: Float = 0
        let lookaheads = [0.0005, 0.0015, 0.005, 0.02]
        for caseIndex in 0..<cases {
            let ceiling = random.float(-40...0)
            let limiter = BrickwallLimiter(
                ceiling: ceiling,
                releaseTime: random.float(0.005...1),
                lookahead: lookaheads[Int(random.next() % 4)]
            )
            limiter.spikeProtectionEnabled = random.next() % 2 == 0
            limiter.prepare(live ? .live(sampleRate: Double(Self.sampleRate), maximumBlockSize: 512) : Self.spec)
            if live { #expect(limiter.latencySamples == 48) }
            let signal = Self.randomSignal(kind: caseIndex % 5, count: frames, using: &random)
            let changesCeiling = random.next() % 2 == 0
            if changesCeiling {
                casesWithCeilingChanges += 1
                // Frame-by-frame with 1…3 ceiling changes; check against the ceiling in force
                // and that it always lies between the settings used.
                var settings = [ceiling]
                var changeFrames = Set<Int>()
                for _ in 0..<Int(random.next() % 3 + 1) { changeFrames.insert(Int(random.next() % UInt64(frames))) }
                for n in 0..<frames {
                    if changeFrames.contains(n) {
                        let newCeiling = random.float(-40...0)
                        limiter.ceiling = newCeiling
                        settings.append(newCeiling)
                    }
                    let out = limiter.processFrame(left: signal.left[n], right: signal.right[n])
                    let bound = limiter.effectiveCeiling
                    if abs(out.left) > bound || abs(out.right) > bound { violations += 1 }
                    if bound > Self.linear(settings.max()!) * 1.000_001 || bound < Self.linear(settings.min()!) * 0.999_999 {
                        violations += 1
                    }
                    largestOvershootRatio = max(largestOvershootRatio, max(abs(out.left), abs(out.right)) / bound)
                }
            } else {
                // Block processing with random block sizes against the fixed setting.
                var left = signal.left, right = signal.right
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        var start = 0
                        while start < frames {
                            let end = min(frames, start + Int(random.next() % 512) + 1)
                            limiter.process(
                                left: UnsafeMutableBufferPointer(rebasing: l[start..<end]),
                                right: UnsafeMutableBufferPointer(rebasing: r[start..<end]))
                            start = end
                        }
                    }
                }
                let bound = Self.linear(ceiling)
                for n in 0..<frames where abs(left[n]) > bound || abs(right[n]) > bound { violations += 1 }
                for n in 0..<frames {
                    largestOvershootRatio = max(largestOvershootRatio, max(abs(left[n]), abs(right[n])) / bound)
                }
            }
            clampEngagements += limiter.safetyClampEngagements
        }
        print("Limiter property test\(live ? " (live stage)" : ""): \(cases) cases × \(frames) frames, \(casesWithCeilingChanges) with ceiling changes, largest peak/ceiling \(largestOvershootRatio)")
        #expect(violations == 0)
        #expect(clampEngagements == 0, "the look-ahead envelope alone keeps the ceiling")
        #expect(largestOvershootRatio <= 1)
        #expect(largestOvershootRatio > 0.99, "the generated signals really do hit the ceiling")
    }

    /// 5 ms of look-ahead, plus the true-peak detector's 26 frames when it detects true peaks.
    @Test(arguments: [true, false])
    func signalsBelowTheCeilingPassUnchangedAfterTheLatency(truePeak: Bool) {
        let limiter = BrickwallLimiter(ceiling: -6, lookahead: 0.005, truePeak: truePeak)
        limiter.prepare(Self.spec)
        let latency = 240 + (truePeak ? 26 : 0)
        #expect(limiter.latencySamples == latency)
        var kernel = limiter
        let input = EffectsTestSignal.sine(frequency: 440, sampleRate: Self.sampleRate, count: 4_800, amplitude: Self.linear(-12))
        let out = EffectsTestSignal.render(&kernel, left: input, right: input)
        for n in latency..<4_800 { #expect(out.left[n] == input[n - latency]) }
        #expect(out.left[..<latency].allSatisfy { $0 == 0 })
        #expect(limiter.gainReductionDecibels == 0)
    }

    /// The live stage: prepared for a live stream, the whole delay (true-peak stage included) stays within
    /// 1 ms at every rate from 44.1 kHz up, whatever look-ahead was asked for; offline it is the one asked for.
    @Test(arguments: [(44_100.0, 44), (48_000, 48), (96_000, 96), (192_000, 192)])
    func theLiveStageDelaysOneMillisecond(rate: Double, frames: Int) {
        for lookahead in [0.0005, 0.005, 0.05] {
            let limiter = BrickwallLimiter(ceiling: -6, lookahead: lookahead)
            limiter.prepare(.live(sampleRate: rate, maximumBlockSize: 256))
            let requested = Int((lookahead * rate).rounded()) + TruePeakDetector.latency
            #expect(limiter.latencySamples == min(frames, requested), "\(rate) Hz, look-ahead \(lookahead) s")
            limiter.prepare(ProcessSpec(sampleRate: rate, maximumBlockSize: 256, channelCount: 2))
            #expect(limiter.latencySamples == requested)
        }
        let samplePeak = BrickwallLimiter(ceiling: -6, truePeak: false)
        samplePeak.prepare(.live(sampleRate: rate, maximumBlockSize: 256))
        #expect(samplePeak.latencySamples == frames, "without the true-peak stage the look-ahead takes the whole budget")
    }

    @Test func sustainedOverloadSitsJustUnderTheCeiling() {
        let limiter = BrickwallLimiter(ceiling: -6, releaseTime: 0.2)
        limiter.prepare(Self.spec)
        var kernel = limiter
        let input = EffectsTestSignal.sine(frequency: 100, sampleRate: Self.sampleRate, count: 48_000, amplitude: Self.linear(12))
        let out = EffectsTestSignal.render(&kernel, left: input, right: input)
        let peak = out.left[24_000...].map(abs).max()!
        #expect(peak <= Self.linear(-6))
        #expect(20 * log10(peak) > -6.5, "limits to the ceiling, not far below it")
        let spikeDuckDecibels = -20 * log10(limiter.spikeProtector.currentGain)
        print("sustained: limiter GR \(limiter.gainReductionDecibels) dB, spike duck \(spikeDuckDecibels) dB, peak \(20 * log10(peak)) dB")
        #expect(abs(limiter.gainReductionDecibels + spikeDuckDecibels - 18) < 1.5)
    }

    /// After a loud burst the gain returns to unity with the release time constant.
    @Test func releaseRecoversExponentially() {
        let limiter = BrickwallLimiter(ceiling: 0, releaseTime: 0.05)
        limiter.spikeProtectionEnabled = false
        limiter.prepare(Self.spec)
        for _ in 0..<2_400 { _ = limiter.processFrame(left: 4, right: 4) }  // −12 dB of reduction
        var gains: [Float] = []
        for _ in 0..<14_400 {
            _ = limiter.processFrame(left: 0.1, right: 0.1)
            gains.append(limiter.currentGain)
        }
        // One release time constant (2 400 frames) after the window has passed.
        let settled = gains[240 + 2_400]
        let expected: Float = 1 - (1 - 0.25) * exp(-1)
        #expect(abs(settled - expected) < 0.03, "gain \(settled), expected about \(expected)")
        #expect(gains.last! > 0.99)
    }

    @Test func nonFiniteInputNeverReachesTheOutput() {
        let limiter = BrickwallLimiter(ceiling: -3)
        limiter.prepare(Self.spec)
        for value in [Float.nan, .infinity, -.infinity, .signalingNaN] {
            for _ in 0..<600 {
                let out = limiter.processFrame(left: value, right: 0.5)
                #expect(out.left.isFinite && out.right.isFinite)
                #expect(abs(out.right) <= Self.linear(-3))
            }
        }
    }

    @Test func ceilingIsClampedToItsRange() {
        let limiter = BrickwallLimiter(ceiling: 6)
        #expect(limiter.ceiling == 0)
        limiter.ceiling = -100
        #expect(limiter.ceiling == -60)
    }
}

@Suite struct SpikeProtectorTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2)

    @Test func quietSignalsPassUntouched() {
        var protector = SpikeProtector(threshold: 6)
        protector.prepare(Self.spec)
        for n in 0..<4_800 {
            let x = Float(sin(Double(n) * 0.1))
            let out = protector.processFrame(left: x, right: -x)
            #expect(out.left == x && out.right == -x)
        }
    }

    /// A +40 dBFS burst is ducked to the threshold within a few attack time
    /// constants (0.5 ms each) and the gain recovers with the 100 ms release.
    @Test func extremeTransientDucksFastAndRecoversSlowly() {
        var protector = SpikeProtector(threshold: 6, attackTime: 0.0005, releaseTime: 0.1)
        protector.prepare(Self.spec)
        let threshold: Float = pow(10, 6.0 / 20)
        var out: (left: Float, right: Float) = (0, 0)
        for _ in 0..<240 { out = protector.processFrame(left: 100, right: 0) }  // 5 ms = 10 τ
        #expect(out.left < threshold * 1.01)
        let ducked = protector.currentGain
        #expect(abs(ducked - threshold / 100) < 0.001)
        for _ in 0..<4_800 { _ = protector.processFrame(left: 0.1, right: 0.1) }  // 100 ms = 1 τ
        let expected = 1 - (1 - ducked) * Float(exp(-1.0))
        #expect(abs(protector.currentGain - expected) < 0.01)
        // Half a millisecond after onset it is already more than halfway down (in dB terms of gain).
        protector.reset()
        for _ in 0..<24 { _ = protector.processFrame(left: 100, right: 100) }
        #expect(protector.currentGain < 0.4)
    }
}
