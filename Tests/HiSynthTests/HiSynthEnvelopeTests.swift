import Foundation
import HiSynth
import Testing
import Touchstone

/// The shared ADSR measured from rendered audio (a sine at A5, level 0.5: amplitude 0.25 × envelope),
/// segment times within one 256-sample block, and the original's quirks.
@Suite struct HiSynthEnvelopeTests {
    static let fs = HiSynthRig.sampleRate
    static let blockSeconds = Double(HiSynthRig.block) / fs
    /// The limiter's look-ahead delays the output by 5 ms.
    static let latency = ((0.005 * fs).rounded() + Double(TruePeakDetector.latency)) / fs

    static func settings(_ a: Double, _ d: Double, _ s: Double, _ r: Double) -> HiSynthSettings {
        var x = HiSynthRig.plain(level: 0.5)
        x.envelope = .init(attack: a, decay: d, sustain: s, release: r)
        return x
    }

    /// Envelope (0…1) from 1.45 ms windows of |output| / 0.25.
    static func envelope(_ out: [Float]) -> [(Double, Double)] {
        HiSynthRig.envelope(out, window: 64).map { ($0.0 - latency, $0.1 / 0.25) }
    }

    @Test func attackDecaySustainReleaseTimes() throws {
        let (a, d, s, r) = (0.4, 0.3, 0.5, 0.6)
        let on = 0.1, off = 1.5
        let out = HiSynthRig.render(Self.settings(a, d, s, r), seconds: 2.4, [(on, .noteOn(81)), (off, .noteOff(81))])
        let env = Self.envelope(out.left)
        // Linear segments: half-way points of each.
        let attackHalf = try #require(HiSynthRig.crossingTime(env, level: 0.5, rising: true))
        #expect(abs(attackHalf - (on + a / 2)) < Self.blockSeconds)
        let decayHalf = try #require(HiSynthRig.crossingTime(env, level: (1 + s) / 2, rising: false, from: on + a))
        #expect(abs(decayHalf - (on + a + d / 2)) < Self.blockSeconds)
        let sustain = env.filter { $0.0 > on + a + d + 0.05 && $0.0 < off - 0.05 }.map(\.1)
        #expect(abs(sustain.max()! - s) < 0.01 && abs(sustain.min()! - s) < 0.01)
        // Release from S at S/R per second: half of S after R/2, silent after R.
        let releaseHalf = try #require(HiSynthRig.crossingTime(env, level: s / 2, rising: false, from: off))
        #expect(abs(releaseHalf - (off + r / 2)) < Self.blockSeconds)
        let tail = env.filter { $0.0 > off + r + Self.blockSeconds }.map(\.1)
        #expect(tail.max()! < 1e-3)
    }

    @Test(arguments: [(0.05, 1.0), (2.0, 0.04), (0.04998779296875, 0.8)])
    func shortReleaseOrLowSustainCutsWithinOneMillisecond(_ release: Double, _ sustain: Double) {
        let off = 0.5
        let out = HiSynthRig.render(Self.settings(0, 0.1, sustain, release), seconds: 0.8, [(0.1, .noteOn(81)), (off, .noteOff(81))])
        let offFrame = Int(((off + Self.latency) * Self.fs).rounded())
        // Sounding before the gate closes; 1 ms (44 samples) after it, more than 40 dB down (what is left
        // is the 10 Hz high-pass ringing out), where a release would still be near full level.
        let level = Float(0.25 * sustain)
        #expect(HiSynthRig.peak(out.left, (offFrame - 200)..<offFrame) > 0.9 * level)
        #expect(HiSynthRig.peak(out.left, (offFrame + 46)..<(offFrame + 4_410)) < 0.01 * level)
        // The cut is a ramp, not a step: no sample-to-sample jump beyond the sine's own slope.
        let slope = Float(2 * Double.pi * HiSynthRig.hz(81) / Self.fs * 0.25 * sustain)
        var largest: Float = 0
        for i in (offFrame - 10)..<(offFrame + 60) { largest = max(largest, abs(out.left[i] - out.left[i - 1])) }
        #expect(largest < slope * 1.05)
    }

    @Test func attackPlusDecayWithinOneMillisecondJumpsToFullAndIgnoresSustain() throws {
        // Reachable only through settings: a preset's decay is clamped to 0.05…2 s.
        let on = 0.1, off = 0.6
        let out = HiSynthRig.render(Self.settings(0, 0.0008, 0.3, 0.4), seconds: 1.2, [(on, .noteOn(81)), (off, .noteOff(81))])
        let env = Self.envelope(out.left)
        let held = env.filter { $0.0 > on + 0.003 && $0.0 < off }.map(\.1)
        #expect(held.min()! > 0.99 && held.max()! < 1.01)
        // Gate off: from min(1, S) = S, over R.
        let justAfter = env.first { $0.0 > off + 0.003 }!.1
        #expect(abs(justAfter - 0.3) < 0.01)
        let half = try #require(HiSynthRig.crossingTime(env, level: 0.15, rising: false, from: off))
        #expect(abs(half - (off + 0.2)) < Self.blockSeconds)
    }

    @Test func zeroAttackRampsUpOverOneMillisecondWithoutAClick() {
        let on = 0.1
        let out = HiSynthRig.render(Self.settings(0, 0.5, 1, 0.3), seconds: 0.3, [(on, .noteOn(81))])
        let onFrame = Int(((on + Self.latency) * Self.fs).rounded())
        #expect(HiSynthRig.peak(out.left, (onFrame - 100)..<onFrame) == 0)
        // Full level (0.25 × the decay's first ms) within 1 ms; every step within the sine's own slope.
        #expect(HiSynthRig.peak(out.left, (onFrame + 44)..<(onFrame + 110)) > 0.24)
        let slope = Float(2 * Double.pi * HiSynthRig.hz(81) / Self.fs * 0.25)
        var largest: Float = 0
        for i in onFrame..<(onFrame + 60) { largest = max(largest, abs(out.left[i] - out.left[i - 1])) }
        #expect(largest < slope * 1.05)
    }

    @Test func releaseDuringDecayDropsToSustainThenReleasesOverR() throws {
        // Gate off while the decay is still above S: the original continues from min(current, S).
        let on = 0.1, off = 0.3
        let out = HiSynthRig.render(Self.settings(0, 2, 0.5, 1), seconds: 1.6, [(on, .noteOn(81)), (off, .noteOff(81))])
        let env = Self.envelope(out.left)
        let before = env.last { $0.0 < off - 0.002 }!.1
        #expect(abs(before - (1 - 0.5 * (off - on) / 2)) < 0.01)      // 0.95 in the decay
        let after = env.first { $0.0 > off + 0.003 }!.1
        #expect(abs(after - 0.5) < 0.01)
        let half = try #require(HiSynthRig.crossingTime(env, level: 0.25, rising: false, from: off + 0.002))
        #expect(abs(half - (off + 0.5)) < Self.blockSeconds)
    }

    @Test func attackRestartsFromZeroOnEveryNote() throws {
        // The same envelope on a second note: its attack takes the full A from 0 (the original's rule).
        let out = HiSynthRig.render(Self.settings(0.2, 0.5, 1, 0.05), seconds: 1.2,
                                    [(0.1, .noteOn(81)), (0.5, .noteOff(81)), (0.7, .noteOn(81))])
        let env = Self.envelope(out.left)
        let second = try #require(HiSynthRig.crossingTime(env, level: 0.5, rising: true, from: 0.65))
        #expect(abs(second - 0.8) < Self.blockSeconds)
    }
}

/// Settings changed while notes sound never stall, click beyond the ceiling, or poison the output.
@Suite struct HiSynthEnvelopeRobustnessTests {
    @Test func aSustainOfZeroAppliedDuringTheReleaseStillEndsTheNote() {
        var s = HiSynthRig.plain(level: 0.5)
        s.envelope = .init(attack: 0, decay: 0.1, sustain: 0.8, release: 1)
        var silent = s
        silent.envelope.sustain = 0
        let out = HiSynthRig.render(s, seconds: 2, [(0, .noteOn(69)), (0.3, .noteOff(69)), (0.5, .apply(silent))])
        // The release keeps its speed from the gate-off: 0.8 → 0 over 1 s, done by 1.3 s.
        #expect(HiSynthRig.peak(out.left, Int(1.35 * 44_100)..<Int(2 * 44_100)) < 1e-3)
        #expect(HiSynthRig.peak(out.left, Int(0.55 * 44_100)..<Int(0.6 * 44_100)) > 0.1)
    }

    @Test func nonFiniteSettingsAreIgnoredOrClamped() {
        var s = HiSynthRig.plain(level: 0.5)
        s.layer1 = .init(waveform: .saw, level: .nan, pitch: .infinity)
        s.layer2 = .init(waveform: .square, level: 0.3, pitch: .nan)
        s.envelope = .init(attack: .nan, decay: .infinity, sustain: .nan, release: -.infinity)
        s.lowPass = .init(cutoff: .nan, resonance: .infinity)
        s.highPass = .init(cutoff: .infinity, resonance: .nan)
        s.lfo1 = .init(waveform: .sine, depth: .nan, speed: .infinity, phase: .nan, pitch: true, amplitude: true, filterLow: true, filterHigh: true)
        s.effects.reverbOn = true
        s.effects.reverbMix = .nan
        s.effects.delayOn = true
        s.effects.delayTime = .nan
        s.effects.delayFeedback = .infinity
        s.effects.driveOn = true
        s.effects.driveGain = .nan
        s.effects.decimatorOn = true
        s.effects.decimatorRate = .infinity
        let out = HiSynthRig.render(HiSynthRig.plain(), seconds: 0.6, [(0, .apply(s)), (0.01, .noteOn(60)), (0.3, .noteOff(60))])
        #expect((out.left + out.right).allSatisfy { $0.isFinite && abs($0) < 1 })
    }

    @Test func randomSettingsWhileNotesSoundStayFiniteAndBelowTheCeiling() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var commands: [(Double, HiSynthEngine.Command)] = []
        for k in 0..<40 {
            let t = Double(k) * 0.05
            var s = HiSynthSettings()
            s.layer1 = .init(waveform: HiSynthWaveform.allCases[Int(next() * 6)], level: Float(next()), pitch: Float(next() * 24 - 12))
            s.layer2 = .init(waveform: HiSynthWaveform.allCases[Int(next() * 6)], level: Float(next()), pitch: Float(next() * 24 - 12))
            s.envelope = .init(attack: next() * 0.3, decay: 0.05 + next(), sustain: next(), release: 0.05 + next() * 2)
            s.lowPass = .init(cutoff: Float(10 + next() * 22_000), resonance: Float(next() * 60 - 20))
            s.highPass = .init(cutoff: Float(next() * 5_000), resonance: Float(next() * 60 - 20))
            for i in 0..<3 {
                s[lfo: i] = .init(waveform: HiSynthWaveform.allCases[Int(next() * 6)], depth: Float(next()), speed: 0.25 + next() * 19.75,
                                  phase: next(), pitch: next() > 0.5, amplitude: next() > 0.5, filterLow: next() > 0.5, filterHigh: next() > 0.5)
            }
            s.effects.decimatorOn = next() > 0.5
            s.effects.decimatorRate = Float(next() * 30)
            s.effects.driveOn = next() > 0.5
            s.effects.driveGain = Float(next() * 60 - 40)
            s.effects.delayOn = next() > 0.5
            s.effects.delayTime = Float(next() * 2)
            s.effects.delayFeedback = Float(next())
            s.effects.reverbOn = next() > 0.5
            s.effects.reverbVariant = HiSynthReverbVariant.allCases[Int(next() * 7)]
            commands.append((t, .apply(s)))
            commands.append((t + 0.01, next() > 0.3 ? .noteOn(UInt8(24 + Int(next() * 84))) : .noteOff(UInt8(24 + Int(next() * 84)))))
        }
        commands.append((2.05, .allSoundOff))
        let out = HiSynthRig.render(HiSynthSettings(), seconds: 2.3, commands)
        let ceiling = Float(pow(10, Double(HiSynthEngine.ceilingDecibels) / 20))
        #expect((out.left + out.right).allSatisfy { $0.isFinite && abs($0) <= ceiling * 1.0001 })
        #expect(out.engine.snapshot().soundingVoiceCount == 0)
    }
}
