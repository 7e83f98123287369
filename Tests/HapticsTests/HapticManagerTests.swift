import Foundation
import Haptics
import Testing

/// The seed's numbers (003: HapticManager) and the chosen ones documented in `HapticManager`.
@Suite struct HapticManagerTests {
    @Test func tapIsOneTransientAt04And02() {
        let p = HapticManager.tap()
        #expect(p.events == [HapticEvent(.hapticTransient, time: 0, parameters: [(.hapticIntensity, 0.4), (.hapticSharpness, 0.2)])])
    }

    @Test func adaptiveBelowAndAt2HzIsContinuous() {
        let p = HapticManager.adaptive(rate: 1, amplitude: 1, duration: 2)
        #expect(p.events.map(\.time) == [0, 1])
        for e in p.events {
            #expect(e.type == .hapticContinuous && e.duration == 0.2 && abs(e.intensity - 0.7) < 1e-12 && e.sharpness == 0.3)
        }
        let atTwo = HapticManager.adaptive(rate: 2, amplitude: 0.5, duration: 1)
        #expect(atTwo.events.map(\.time) == [0, 0.5])
        #expect(atTwo.events.allSatisfy { $0.type == .hapticContinuous && abs($0.intensity - 0.35) < 1e-12 })
    }

    @Test func adaptiveAbove2HzIsTransient() {
        let p = HapticManager.adaptive(rate: 4, amplitude: 0.5, duration: 1)
        #expect(p.events.map(\.time) == [0, 0.25, 0.5, 0.75])
        for e in p.events {
            #expect(e.type == .hapticTransient && abs(e.intensity - 0.3) < 1e-12 && e.sharpness == 0.5)
        }
        let fast = HapticManager.adaptive(rate: 2.01, amplitude: 1, duration: 0.1)
        #expect(fast.events.count == 1 && fast.events[0].type == .hapticTransient && abs(fast.events[0].intensity - 0.6) < 1e-12)
        // Rates are clamped to the LFO's 0.1…10 Hz.
        #expect(HapticManager.adaptive(rate: 50, amplitude: 1, duration: 1).events.count == 10)
    }

    @Test func gradualIsABellOf20EventsOver2Seconds() {
        let p = HapticManager.gradual()
        #expect(p.events.count == 20)
        #expect(abs(p.duration - 2) < 1e-12)
        for (k, e) in p.events.enumerated() {
            #expect(e.type == .hapticContinuous && e.duration == 0.1 && abs(e.time - 0.1 * Double(k)) < 1e-12 && e.sharpness == 0.3)
            let centre = 0.1 * Double(k) + 0.05
            let expected = 0.6 * Foundation.exp(-pow(centre - 1, 2) / (2 * 0.35 * 0.35))
            #expect(abs(e.intensity - expected) < 1e-9, "event \(k)")
        }
        // Peak in the middle (events 9 and 10 straddle t = 1 s), symmetric, first event near 2 % of the peak.
        let levels = p.events.map(\.intensity)
        #expect(levels.max() == levels[9] && abs(levels[9] - levels[10]) < 1e-12)
        #expect(abs(levels[0] / 0.6 - 0.0251) < 0.0005)
        #expect(abs(HapticManager.gradual(intensity: 1).events[9].intensity - Foundation.exp(-0.0025 / 0.245)) < 1e-9)
    }

    @Test func heavyFallsInFiveSteps() {
        let p = HapticManager.heavy()
        #expect(p.events.map(\.time).map { ($0 * 10).rounded() / 10 } == [0, 0.2, 0.4, 0.6, 0.8])
        #expect(p.events.map(\.intensity) == [1, 0.8, 0.6, 0.4, 0.2])
        #expect(p.events.allSatisfy { $0.type == .hapticContinuous && $0.duration == 0.2 && $0.sharpness == 0.4 })
        #expect(abs(p.duration - 1) < 1e-12)
    }
}
