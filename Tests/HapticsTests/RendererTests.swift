import Haptics
import Testing

@Suite struct AndroidWaveformTests {
    @Test func tapIsOne25msStepAtRound04Times255() {
        let w = AndroidWaveform(HapticManager.tap())
        #expect(w.timings == [25] && w.amplitudes == [102] && w.repeatIndex == -1)
        #expect(w.warnings.contains(.sharpnessDropped) && w.warnings.contains(.intensityQuantised(levels: 255)))
        #expect(w.warnings.contains(.transientsLengthened(count: 1, length: 0.025)))
        #expect(w.json() == "{\n  \"timings\": [25],\n  \"amplitudes\": [102],\n  \"repeat\": -1\n}\n")
    }

    @Test func heavyIsFive200msSteps() {
        let w = AndroidWaveform(HapticManager.heavy())
        #expect(w.timings == [200, 200, 200, 200, 200])
        #expect(w.amplitudes == [255, 204, 153, 102, 51])
    }

    @Test func gapsAreOffAndRunningIsNeverZero() {
        let p = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 0.5),
            .continuous(at: 0.1, duration: 0.1, intensity: 0.001, sharpness: 0.5),
            .transient(at: 0.5, intensity: 0.5, sharpness: 0.5),
        ])
        let w = AndroidWaveform(p)
        #expect(w.timings == [25, 75, 100, 300, 25])
        #expect(w.amplitudes == [255, 0, 1, 0, 128])
    }

    @Test func everyStepIsAtLeast25msAndAmplitudesStayInRange() {
        for pattern in [HapticManager.gradual(), HapticManager.adaptive(rate: 7, amplitude: 0.8, duration: 3), HapticManager.adaptive(rate: 0.5, amplitude: 0.3, duration: 10)] {
            let w = AndroidWaveform(pattern)
            #expect(w.timings.count == w.amplitudes.count)
            #expect(w.timings.allSatisfy { $0 >= 25 })
            #expect(w.amplitudes.allSatisfy { (0...255).contains($0) })
        }
        // Gradual runs without a break for 2 s: no zero amplitude at all.
        let g = AndroidWaveform(HapticManager.gradual())
        #expect(!g.amplitudes.contains(0) && g.timings.reduce(0, +) == 2000)
    }

    @Test func intensityCurvesShapeTheAmplitude() {
        let p = HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)],
                              curves: [HapticParameterCurve(.hapticIntensityControl, time: 0, points: [.init(time: 0, value: 0), .init(time: 1, value: 1)])])
        let w = AndroidWaveform(p)
        // 40 steps of 25 ms, each at its midpoint's value round(255·(k + 0.5)/40).
        #expect(w.timings.reduce(0, +) == 1000 && w.amplitudes.count == 40)
        #expect(w.amplitudes[0] == 3 && w.amplitudes[39] == 252)
    }

    @Test func audioEventsAreIgnoredWithAWarning() {
        let p = HapticPattern(events: [HapticEvent(.audioContinuous, time: 0, duration: 1), .transient(at: 0, intensity: 1, sharpness: 0.5)])
        let w = AndroidWaveform(p)
        #expect(w.timings == [25] && w.warnings.contains(.audioEventsIgnored(count: 1)))
    }
}

@Suite struct WebVibrationPatternTests {
    @Test func fullIntensityIsOneEntry() {
        let w = WebVibrationPattern(HapticPattern(events: [.continuous(at: 0, duration: 1.5, intensity: 1, sharpness: 0.5)]))
        #expect(w.pattern == [1500])
        #expect(w.json() == "{\n  \"pattern\": [1500]\n}\n")
    }

    @Test func intensityBecomesPulseWidth() {
        let w = WebVibrationPattern(HapticManager.heavy())
        #expect(w.pattern.count <= 99 && w.warnings.contains(.intensityAsPulseWidth(window: 0.02)))
        // First 200 ms at intensity 1: one 200 ms pulse merged with the first 16 ms of the 0.8 step.
        #expect(w.pattern[0] == 216 && w.pattern[1] == 4)
        // Over each 200 ms step the motor is on for intensity × 200 ms.
        var onPerStep = [Int](repeating: 0, count: 5)
        var t = 0
        for (i, ms) in w.pattern.enumerated() {
            if i % 2 == 0 { for m in t..<(t + ms) { onPerStep[m / 200] += 1 } }
            t += ms
        }
        #expect(onPerStep == [200, 160, 120, 80, 40])
    }

    @Test func startsWithAZeroOnWhenThePatternStartsQuiet() {
        let w = WebVibrationPattern(HapticPattern(events: [.continuous(at: 0.5, duration: 0.3, intensity: 1, sharpness: 0.5)]))
        #expect(w.pattern == [0, 500, 300])
    }

    @Test func entriesStayWithinChromiumsLimits() {
        let long = WebVibrationPattern(HapticPattern(events: [.continuous(at: 0, duration: 25, intensity: 1, sharpness: 0.5)]))
        #expect(long.pattern == [10_000, 0, 10_000, 0, 5_000])
        let busy = WebVibrationPattern(HapticManager.adaptive(rate: 10, amplitude: 1, duration: 30))
        #expect(busy.pattern.count <= 99 && busy.pattern.count % 2 == 1)
        #expect(busy.pattern.allSatisfy { (0...10_000).contains($0) })
        #expect(busy.warnings.contains { if case .truncated = $0 { return true } else { return false } })
        // The gradual swell fits 99 entries at a coarser window than heavy.
        let gradual = WebVibrationPattern(HapticManager.gradual())
        #expect(gradual.pattern.count <= 99)
        #expect(WebVibrationPattern(HapticPattern()).pattern.isEmpty)
    }
}

@Suite struct RumbleTrackTests {
    @Test func strongIsIntensityTimesOneMinusSharpness() {
        let r = RumbleTrack(HapticManager.tap())
        #expect(r.segments == [.init(start: 0, duration: 0.03, strong: 0.32, weak: 0.08)])
        #expect(r.warnings.contains(.sharpnessApproximated))
        #expect(r.json().contains("\"strong\": 0.32") && r.json().contains("\"weak\": 0.08"))
    }

    @Test func heavyIsFiveSegments() {
        let r = RumbleTrack(HapticManager.heavy())
        #expect(r.segments.count == 5)
        for (k, s) in r.segments.enumerated() {
            let i = [1.0, 0.8, 0.6, 0.4, 0.2][k]
            #expect(abs(s.start - 0.2 * Double(k)) < 1e-9 && abs(s.duration - 0.2) < 1e-9)
            #expect(abs(s.strong - i * 0.6) < 1e-9 && abs(s.weak - i * 0.4) < 1e-9)
        }
    }

    @Test func gapsLeaveNoSegments() {
        let r = RumbleTrack(HapticManager.adaptive(rate: 1, amplitude: 1, duration: 3))
        #expect(r.segments.map(\.start) == [0, 1, 2])
        #expect(r.segments.allSatisfy { abs($0.duration - 0.2) < 1e-9 && abs($0.strong - 0.49) < 1e-9 && abs($0.weak - 0.21) < 1e-9 })
    }
}

@Suite struct AndroidCompositionTests {
    @Test func tapsBecomePrimitivesChosenBySharpnessAndIntensity() throws {
        let p = HapticPattern(events: [
            .transient(at: 0, intensity: 0.4, sharpness: 0.2),
            .transient(at: 0.25, intensity: 0.9, sharpness: 0.2),
            .transient(at: 0.5, intensity: 0.3, sharpness: 0.6),
            .transient(at: 1, intensity: 0.6, sharpness: 0.5),
        ])
        let c = try #require(AndroidComposition(p))
        #expect(c.steps.map(\.primitive) == [.lowTick, .thud, .tick, .click])
        #expect(c.steps.map(\.scale) == [0.4, 0.9, 0.3, 0.6])
        // Delays count from the end of the previous primitive (assumed 20 ms long).
        #expect(c.steps.map(\.delay) == [0, 230, 230, 480])
        #expect(c.json().contains("\"id\": \"LOW_TICK\""))
        #expect(c.warnings.contains(.primitiveLengthAssumed(milliseconds: 20)))
    }

    @Test func continuousEventsDoNotFit() {
        #expect(AndroidComposition(HapticManager.heavy()) == nil)
        #expect(AndroidComposition(HapticPattern()) == nil)
        #expect(AndroidComposition(HapticManager.adaptive(rate: 5, amplitude: 1, duration: 1))?.steps.count == 5)
    }
}
