import Foundation
import Testing
import Touchstone

@Suite struct ADSRTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 256)

    static func make(_ p: ADSR.Parameters) -> ADSR {
        var env = ADSR(p)
        env.prepare(spec)
        return env
    }

    static func render(_ env: inout ADSR, _ count: Int) -> [Float] {
        (0..<count).map { _ in env.nextSample() }
    }

    /// First index where the envelope satisfies `condition`.
    static func firstIndex(_ samples: [Float], _ condition: (Float) -> Bool) -> Int? {
        samples.firstIndex(where: condition)
    }

    @Test(arguments: EnvelopeShape.allCases)
    func segmentTimesMeasuredFromTheOutput(_ shape: EnvelopeShape) throws {
        let p = ADSR.Parameters(attack: 0.01, decay: 0.2, sustain: 0.7, release: 0.5, shape: shape)
        var env = Self.make(p)
        env.gateOn()
        let held = Self.render(&env, 48_000)
        // Attack ends (reaches 1) after 480 samples.
        let peak = try #require(Self.firstIndex(held) { $0 >= 1 })
        #expect(abs(peak - 479) <= 1, "attack reached 1 at \(peak)")
        // Decay reaches the sustain level 200 ms later.
        let sustained = try #require(held[peak...].firstIndex { $0 <= 0.7 + 1e-6 })
        #expect(abs(sustained - (479 + 9_600)) <= (shape == .linear ? 2 : 4), "decay reached sustain at \(sustained)")
        #expect(env.stage == .sustain && abs(held.last! - 0.7) < 1e-6)
        env.gateOff()
        let released = Self.render(&env, 30_000)
        let silent = try #require(Self.firstIndex(released) { $0 == 0 })
        #expect(abs(silent - 23_999) <= 2, "release reached 0 at \(silent)")
        #expect(!env.isActive)
        #expect(released[silent...].allSatisfy { $0 == 0 })
    }

    @Test func exponentialSegmentsCurveAndLinearOnesDoNot() {
        func midpointOfRelease(_ shape: EnvelopeShape) -> Float {
            var env = Self.make(ADSR.Parameters(attack: 0, decay: 0, sustain: 1, release: 0.1, shape: shape))
            env.gateOn()
            _ = Self.render(&env, 10)
            env.gateOff()
            return Self.render(&env, 2_400).last!
        }
        // Halfway through a linear release the level is half; an exponential release is far lower.
        #expect(abs(midpointOfRelease(.linear) - 0.5) < 1e-3)
        let expo = midpointOfRelease(.exponential)
        #expect(expo < 0.05 && expo > 0.01, "\(expo)")      // ≈ (1/1001)^½ ≈ 0.032

        func midpointOfAttack(_ shape: EnvelopeShape) -> Float {
            var env = Self.make(ADSR.Parameters(attack: 0.1, decay: 0.1, sustain: 0.5, release: 0.1, shape: shape))
            env.gateOn()
            return Self.render(&env, 2_400).last!
        }
        #expect(abs(midpointOfAttack(.linear) - 0.5) < 1e-3)
        #expect(midpointOfAttack(.exponential) > 0.6)          // concave, RC-charging curve
    }

    @Test(arguments: EnvelopeShape.allCases)
    func retriggerDuringReleaseContinuesFromTheCurrentLevel(_ shape: EnvelopeShape) {
        var env = Self.make(ADSR.Parameters(attack: 0.05, decay: 0.1, sustain: 0.6, release: 0.4, shape: shape))
        env.gateOn()
        var samples = Self.render(&env, 12_000)
        env.gateOff()
        samples += Self.render(&env, 3_000)
        let levelAtRetrigger = samples.last!
        #expect(levelAtRetrigger > 0.1 && levelAtRetrigger < 0.6)
        env.gateOn()
        samples += Self.render(&env, 12_000)
        let jumps = zip(samples.dropFirst(), samples).map { abs($0 - $1) }
        // Largest per-sample change is the attack's own slope (1/2400 linear, at most 1.3·(1 − c) ≈ 1/1260
        // exponential), never a restart from 0 (a jump of the whole level).
        #expect(jumps.max()! < 1e-3, "\(jumps.max()!)")
        #expect(samples[15_000] >= levelAtRetrigger - 1e-4)
        #expect(samples.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test func gateIsSampleAccurate() {
        var env = Self.make(ADSR.Parameters(attack: 0, decay: 0, sustain: 0.8, release: 0.01))
        var out = [Float](repeating: 0, count: 256)
        out.withUnsafeMutableBufferPointer { buffer in
            // Gate on at frame 37 of the block.
            env.generate(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<37]))
            env.gateOn()
            env.generate(into: UnsafeMutableBufferPointer(rebasing: buffer[37..<256]))
        }
        #expect(out[36] == 0)
        #expect(out[37] > 0)
    }

    @Test func killFadesWithinAFewMillisecondsWithoutAClick() {
        var env = Self.make(ADSR.Parameters(attack: 0.001, decay: 0.1, sustain: 1, release: 5))
        env.gateOn()
        _ = Self.render(&env, 1_000)
        env.kill()                                    // 3 ms
        let fade = Self.render(&env, 200)
        #expect(!env.isActive)
        let end = fade.firstIndex(of: 0) ?? -1
        #expect(end == 143 || end == 144, "kill ended at \(end)")   // 3 ms = 144 samples at 48 kHz
        let jumps = zip(fade.dropFirst(), fade).map { abs($0 - $1) }
        #expect(jumps.max()! < 1.0 / 140)
    }

    @Test func parameterChangesWhileSustainingGlide() {
        var env = Self.make(ADSR.Parameters(attack: 0, decay: 0, sustain: 0.9, release: 0.1))
        env.gateOn()
        _ = Self.render(&env, 100)
        env.setParameters(ADSR.Parameters(attack: 0, decay: 0, sustain: 0.3, release: 0.1))
        let glide = Self.render(&env, 2_400)
        let jumps = zip(glide.dropFirst(), glide).map { abs($0 - $1) }
        #expect(jumps.max()! < 0.01)
        #expect(abs(glide.last! - 0.3) < 1e-4)
    }

    @Test func longSegmentsAndOutOfRangeParameters() {
        let p = ADSR.Parameters(attack: 12, decay: -1, sustain: 3, release: .nan)
        #expect(p.attack == 12 && p.decay == 0 && p.sustain == 1 && p.release == 0)
        var env = Self.make(p)
        env.gateOn()
        let first = Self.render(&env, 48_000)
        #expect(abs(first.last! - 1.0 / 12) < 1e-3)      // a 12 s attack is 1/12 up after 1 s
        var idle = Self.make(ADSR.Parameters())
        idle.gateOff()
        #expect(!idle.isActive && idle.nextSample() == 0)
    }
}
