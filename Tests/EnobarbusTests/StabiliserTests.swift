import Enobarbus
import Foundation
import Testing

/// A deterministic noise source (LCG), uniform in −1…1.
struct Noise {
    var state: UInt64
    mutating func next() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(state >> 40) / Float(1 << 23) - 1
    }
}

func variance(_ xs: [Float]) -> Double {
    let mean = xs.reduce(0.0) { $0 + Double($1) } / Double(xs.count)
    return xs.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(xs.count)
}

@Suite struct PositionStabilizerTests {
    @Test func jitterIsReducedByTheTheoreticalEMARatio() {
        var noise = Noise(state: 7)
        var s = PositionStabilizer()
        var raw: [Float] = [], out: [Float] = []
        for _ in 0..<5000 {
            let p = SIMD2<Float>(0.5 + 0.01 * noise.next(), 0.5)
            raw.append(p.x)
            out.append(s.update(p).x)
        }
        // White noise through y += α(x − y): variance ratio α / (2 − α) = 0.6 / 1.4 ≈ 0.43.
        let ratio = variance(Array(out.dropFirst(100))) / variance(Array(raw.dropFirst(100)))
        #expect(abs(ratio - 0.6 / 1.4) < 0.04, "variance ratio \(ratio)")
        var bypassed = PositionStabilizer(isBypassed: true)
        #expect(raw.map { bypassed.update(SIMD2($0, 0.5)).x } == raw)
    }

    @Test func smallMoveIsFollowedGeometrically() {
        var s = PositionStabilizer()
        _ = s.update(SIMD2(0.2, 0.2))
        // A 0.1 step (under the 0.15 clamp): the error shrinks by (1 − α) = 0.4 per frame.
        var outputs: [Float] = []
        for _ in 0..<6 { outputs.append(s.update(SIMD2(0.3, 0.2)).x) }
        #expect(abs(outputs[0] - 0.26) < 1e-6)
        #expect(abs(outputs[1] - 0.284) < 1e-6)
        #expect(abs(outputs[5] - (0.3 - 0.1 * pow(0.4, 6))) < 1e-6)
    }

    @Test func realJumpIsAcceptedAfterExactlyFiveRejections() {
        var s = PositionStabilizer()
        _ = s.update(SIMD2(0.2, 0.2))
        for k in 1...5 {
            #expect(s.update(SIMD2(0.8, 0.2)) == SIMD2(0.2, 0.2), "frame \(k) is held")
            #expect(s.consecutiveRejections == k)
        }
        // The sixth far frame: the jump is real, snap with no glide.
        #expect(s.update(SIMD2(0.8, 0.2)) == SIMD2(0.8, 0.2))
        #expect(s.consecutiveRejections == 0)
        #expect(abs(s.update(SIMD2(0.81, 0.2)).x - 0.806) < 1e-6)
    }

    @Test func singleFrameGlitchIsRejected() {
        var s = PositionStabilizer()
        _ = s.update(SIMD2(0.5, 0.5))
        #expect(s.update(SIMD2(0.95, 0.05)) == SIMD2(0.5, 0.5))
        #expect(s.update(SIMD2(0.5, 0.5)) == SIMD2(0.5, 0.5))
        #expect(s.consecutiveRejections == 0)
    }

    @Test func steadyFastMotionIsNotMistakenForAGlitch() {
        var s = PositionStabilizer()
        var x: Float = 0
        for _ in 0..<8 { x += 0.1; _ = s.update(SIMD2(x, 0)) }
        #expect(s.consecutiveRejections == 0)
        // Steady-state EMA lag for a ramp: v(1 − α)/α = 0.1·0.4/0.6.
        #expect(abs((x - s.position!.x) - 0.1 * 0.4 / 0.6) < 1e-3)
    }
}

@Suite struct OneEuroFilterTests {
    static let dt = 1.0 / 60

    /// Steady-state lag of a ramp of speed v through the filter: v·τ with τ = 1/(2π·fc),
    /// and fc = mincutoff + β·v once the derivative has settled.
    func rampLag(beta: Double) -> Double {
        var f = OneEuroFilter(minimumCutoff: 1, beta: beta, derivativeCutoff: 1)
        var out = 0.0, t = 0.0
        for k in 0..<1200 { t = Double(k) * Self.dt; out = f.filter(t, at: t) }
        return t - out
    }

    @Test func lagFollowsTheory() {
        #expect(abs(rampLag(beta: 0) - 1 / (2 * Double.pi)) < 1e-3)
        #expect(abs(rampLag(beta: 1) - 1 / (2 * Double.pi * 2)) < 2e-3)
    }

    func jitterRatio(minimumCutoff: Double) -> Double {
        var f = OneEuroFilter(minimumCutoff: minimumCutoff)
        var noise = Noise(state: 11)
        var raw: [Float] = [], out: [Float] = []
        for k in 0..<6000 {
            let x = 0.01 * noise.next()
            raw.append(x)
            out.append(Float(f.filter(Double(x), at: Double(k) * Self.dt)))
        }
        return variance(Array(out.dropFirst(600))) / variance(Array(raw.dropFirst(600)))
    }

    @Test func lowerCutoffMeansLessJitterAndMoreLag() {
        // Still input: variance ratio α/(2 − α) with α = 1/(1 + τ/dt).
        for fc in [1.0, 10.0] {
            let alpha = OneEuroFilter.alpha(cutoff: fc, interval: Self.dt)
            let expected = alpha / (2 - alpha)
            #expect(abs(jitterRatio(minimumCutoff: fc) / expected - 1) < 0.25, "fc \(fc)")
        }
        #expect(jitterRatio(minimumCutoff: 1) < jitterRatio(minimumCutoff: 10) / 4)
        #expect(rampLag(beta: 0) > rampLag(beta: 1))
    }

    @Test func timeComesFromTimestamps() {
        var f = OneEuroFilter(minimumCutoff: 2)
        _ = f.filter(0, at: 0)
        // A dropped frame: the real interval (2/60 s) sets α.
        let y = f.filter(1, at: 2 * Self.dt)
        #expect(abs(y - OneEuroFilter.alpha(cutoff: 2, interval: 2 * Self.dt)) < 1e-12)
        #expect(f.filter(5, at: 2 * Self.dt) == y, "no time passed: estimate held")
    }

    @Test func reseedsOnReacquisitionAndBypasses() {
        var f = OneEuroFilter(minimumCutoff: 1, reacquisitionGap: 0.5)
        for k in 0..<30 { _ = f.filter(0, at: Double(k) * Self.dt) }
        #expect(f.filter(1, at: 30 * Self.dt) < 0.2)
        #expect(f.filter(7, at: 30 * Self.dt + 0.6) == 7, "gap longer than 0.5 s: re-seeded")
        f.reset()
        #expect(f.filter(-3, at: 100) == -3)
        var bypassed = OneEuroFilter(isBypassed: true)
        #expect(bypassed.filter(0, at: 0) == 0 && bypassed.filter(1, at: Self.dt) == 1)
    }

    @Test func bankFiltersHandsPerChannel() {
        var bank = OneEuroFilterBank(channelCount: 63, prototype: OneEuroFilter(minimumCutoff: 1))
        let a = HandFrame(slot: 0, timestamp: 0, landmarks: Array(repeating: SIMD3(0, 0, 0), count: 21))
        let b = HandFrame(slot: 0, timestamp: Self.dt, landmarks: (0..<21).map { SIMD3(Float($0), 1, 0) })
        _ = bank.filter(a)
        let out = bank.filter(b)
        let alpha = Float(OneEuroFilter.alpha(cutoff: 1, interval: Self.dt))
        #expect(abs(out[.pinkyTip].x - 20 * alpha) < 1e-4)
        #expect(abs(out[.wrist].y - alpha) < 1e-5)
        #expect(out[.wrist].x == 0)
    }
}
