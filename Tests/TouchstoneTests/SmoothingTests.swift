import Foundation
import Testing
import Touchstone

@Suite struct SmoothingTests {
    @Test func onePoleCoefficientGivesTheTimeConstant() {
        // After τ seconds a one-pole has covered 1 − 1/e of a step.
        var s = OnePoleSmoother(timeConstant: 0.01, sampleRate: 48_000, initialValue: 0)
        s.target = 1
        for _ in 0..<480 { _ = s.next() }
        #expect(abs(s.value - (1 - exp(-1))) < 1e-3)
        #expect(OnePoleSmoother.coefficient(timeConstant: 0, sampleRate: 48_000) == 1)
        #expect(OnePoleSmoother.coefficient(timeConstant: -.infinity, sampleRate: 48_000) == 1)
        // The free function is the same recurrence.
        #expect(rtOnePole(0, target: 1, coefficient: 0.25) == 0.25)
    }

    @Test func onePoleSnapsToLargeAndSmallTargets() {
        // A cutoff in Hz must settle exactly (not stick one rounding step short), and a decay to 0 must
        // reach exact 0, never subnormal numbers.
        var hz = OnePoleSmoother(timeConstant: 0.005, sampleRate: 48_000, initialValue: 200)
        hz.target = 12_345.6
        var steps = 0
        while hz.isSmoothing && steps < 100_000 { _ = hz.next(); steps += 1 }
        #expect(hz.value == 12_345.6)
        var gain = OnePoleSmoother(timeConstant: 0.005, sampleRate: 48_000, initialValue: 1)
        gain.target = 0
        var sawSubnormal = false
        steps = 0
        while gain.isSmoothing && steps < 100_000 { sawSubnormal = sawSubnormal || gain.next().isSubnormal; steps += 1 }
        #expect(gain.value == 0 && !sawSubnormal)
    }

    @Test func linearRampReachesTheTargetExactlyOnTime() {
        var ramp = LinearRamp(value: 0.2)
        ramp.ramp(to: 0.9, overSamples: 100)
        var values: [Float] = []
        for _ in 0..<100 { values.append(ramp.next()) }
        #expect(values.last == 0.9)
        #expect(!ramp.isSmoothing)
        #expect(abs(values[49] - (0.2 + 0.7 * 0.5)) < 1e-5)
        // Constant steps.
        let steps = zip(values.dropFirst(), values).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.007) < 1e-5 })
        ramp.ramp(to: 0, overSamples: 10)
        #expect(ramp.skip(4) == ramp.value && abs(ramp.value - 0.54) < 1e-5)
        #expect(ramp.skip(100) == 0)
        ramp.snap(to: 3)
        #expect(ramp.next() == 3)
    }

    @Test(arguments: SmoothingStyle.allCases)
    func smoothedParameterSettlesAndHasAFastPath(_ style: SmoothingStyle) {
        var p = SmoothedParameter(initialValue: 100, style: style, rampTime: 0.01)
        p.prepare(sampleRate: 48_000)
        #expect(!p.isSmoothing)
        #expect(p.next() == 100)
        p.setTarget(1_600)
        #expect(p.isSmoothing)
        var previous: Float = 100
        var monotonic = true
        var count = 0
        while p.isSmoothing && count < 48_000 {
            let v = p.next()
            monotonic = monotonic && v >= previous
            previous = v
            count += 1
        }
        #expect(monotonic)
        #expect(p.current == 1_600)
        switch style {
        case .linear, .multiplicative: #expect(count == 480)
        case .exponential: #expect(count > 480 && count < 480 * 16)
        }
    }

    @Test func multiplicativeRampIsStraightInPitch() {
        var p = SmoothedParameter(initialValue: 100, style: .multiplicative, rampTime: 0.01)
        p.prepare(sampleRate: 48_000)
        p.setTarget(1_600)                          // four octaves in 480 samples
        for _ in 0..<240 { _ = p.next() }
        #expect(abs(p.current - 400) < 0.05)        // halfway in time = halfway in octaves
        // Linear would be at 850.
        var l = SmoothedParameter(initialValue: 100, style: .linear, rampTime: 0.01)
        l.prepare(sampleRate: 48_000)
        l.setTarget(1_600)
        for _ in 0..<240 { _ = l.next() }
        #expect(abs(l.current - 850) < 0.01)
    }

    /// `nextFour()` against four calls of `next()`, bit for bit, in every style: ramps of 1 to 17 samples (so a
    /// ramp ends on every lane of a four-sample step), retargeted mid-ramp, and settled.
    @Test func nextFourEqualsFourCallsOfNext() {
        for style in SmoothingStyle.allCases {
            for rampSamples in 1...17 {
                var four = SmoothedParameter(initialValue: 3, style: style, rampTime: Double(rampSamples) / 48_000)
                four.prepare(sampleRate: 48_000)
                var single = four
                let targets: [Float] = [440, 0.25, 7_000, 7_000, 19.5]
                for round in 0..<40 {
                    if round % 3 == 0 {
                        four.setTarget(targets[round / 3 % targets.count])
                        single.setTarget(targets[round / 3 % targets.count])
                    }
                    let values = four.nextFour()
                    for lane in 0..<4 {
                        let expected = single.next()
                        #expect(values[lane].bitPattern == expected.bitPattern, "\(style), \(rampSamples) samples, round \(round), lane \(lane)")
                    }
                    #expect(four == single, "\(style), \(rampSamples) samples, round \(round)")
                }
            }
        }
    }

    @Test func retargetingMidRampIsContinuousAndSkipMatchesNext() {
        for style in SmoothingStyle.allCases {
            var a = SmoothedParameter(initialValue: 1, style: style, rampTime: 0.02)
            a.prepare(sampleRate: 48_000)
            a.setTarget(10)
            for _ in 0..<300 { _ = a.next() }
            let before = a.current
            a.setTarget(2)
            let after = a.next()
            #expect(abs(after - before) < 0.1, "\(style)")
            var b = a
            for _ in 0..<123 { _ = a.next() }
            let skipped = b.skip(123)
            #expect(abs(skipped - a.current) < 1e-3 * max(1, abs(a.current)), "\(style)")
        }
    }

    @Test func badTargetsAreHandled() {
        var p = SmoothedParameter(initialValue: 1, style: .multiplicative, rampTime: 0.01)
        p.setTarget(.nan)
        #expect(p.target == 1)
        p.setTarget(-5)                               // a ratio cannot cross zero: clamped
        #expect(p.target == SmoothedParameter.minimumMultiplicativeValue)
        for _ in 0..<1000 { _ = p.next() }
        #expect(p.current > 0 && p.current.isFinite)
        var zero = SmoothedParameter(initialValue: 0.5, style: .linear, rampTime: 0)
        zero.setTarget(0.8)                           // zero ramp time jumps
        #expect(!zero.isSmoothing && zero.next() == 0.8)
    }
}
