import Games
import Haptics
import Studio
import Testing

/// Haptic events → `navigator.vibrate` patterns (the web renderer), and the merge of overlapping
/// events into one pattern (each `vibrate` call cancels the one before).
@Suite("Game haptic bursts")
struct GameHapticMixerTests {
    @Test("a tap alone: 30 ms at intensity 0.4 on a 20 ms pulse-width grid is one window at round(0.4·20) = 8 ms")
    func tap() throws {
        var mixer = GameHapticMixer()
        let burstMade = mixer.add([HapticManager.tapEvent(at: 3.25)])
        let burst = try #require(burstMade)
        #expect(burst.time == 3.25)
        #expect(burst.pattern == [8])
        #expect(burst.pattern == WebVibrationPattern(HapticManager.tap()).pattern)
    }

    @Test("each game's event renders as the web renderer renders it from the event's start")
    func rendererPatterns() throws {
        var mixer = GameHapticMixer()
        let heavyMade = mixer.add(HapticManager.heavy(at: 10).events)
        let heavy = try #require(heavyMade)
        #expect(heavy.pattern == WebVibrationPattern(HapticManager.heavy()).pattern)
        mixer.reset()
        let slowMade = mixer.add([HapticManager.adaptiveEvent(rate: 1, amplitude: 1, at: 20)])
        let slow = try #require(slowMade)
        // Continuous 0.2 s at 0.7: ten 20 ms windows of 14 ms on, 6 off, the last pause dropped.
        #expect(slow.pattern == Array([14, 6].repeated(10).dropLast()))
        mixer.reset()
        let fastMade = mixer.add([HapticManager.adaptiveEvent(rate: 5, amplitude: 1, at: 30)])
        let fast = try #require(fastMade)
        // Transient at 0.6: one 20 ms window, round(0.6·20) = 12 ms.
        #expect(fast.pattern == [12])
    }

    @Test("an event during another's pattern: the new burst carries the rest of the old one (the stronger step wins)")
    func overlapping() throws {
        var mixer = GameHapticMixer()
        _ = mixer.add(HapticManager.heavy(at: 0).events)
        let burstMade = mixer.add([HapticManager.tapEvent(at: 0.5)])
        let burst = try #require(burstMade)
        #expect(burst.time == 0.5)
        // From 0.5 s the heavy pulse has 0.1 s at 0.6, 0.2 s at 0.4 and 0.2 s at 0.2 left; the tap (0.4) is
        // weaker than 0.6 in its window. On a 20 ms grid: 12/8 ×5, 8/12 ×10, 4/16 ×10, the last pause dropped.
        let expected = Array(([12, 8].repeated(5) + [8, 12].repeated(10) + [4, 16].repeated(10)).dropLast())
        #expect(burst.pattern == expected)
        #expect(burst.pattern != WebVibrationPattern(HapticManager.tap()).pattern)
    }

    @Test("an event after the last one ended plays alone")
    func separate() throws {
        var mixer = GameHapticMixer()
        _ = mixer.add([HapticManager.tapEvent(at: 1)])
        let burstMade = mixer.add([HapticManager.tapEvent(at: 1.2)])
        let burst = try #require(burstMade)
        #expect(burst.pattern == [8])
        #expect(burst.events.count == 1)
        #expect(mixer.pending.count == 1)
        #expect(burst.serial == 2)
    }

    @Test("events stamped before they were known (an interpolated crossing) play from then, keeping their spacing")
    func notBefore() throws {
        var mixer = GameHapticMixer()
        let burstMade = mixer.add([HapticManager.tapEvent(at: 4.96), HapticManager.tapEvent(at: 5.06)], at: 5.0)
        let burst = try #require(burstMade)
        #expect(burst.time == 5.0)
        #expect(burst.events.map(\.time).map { ($0 * 1000).rounded() } == [0, 100])
        let onTimeMade = mixer.add([HapticManager.tapEvent(at: 6)], at: 5.9)
        let onTime = try #require(onTimeMade)
        #expect(onTime.time == 6)
    }

    @Test("a transient inside its 30 ms is carried as the continuous rest of it")
    func trimmedTransient() throws {
        let t = try #require(GameHapticMixer.trimmed(HapticManager.tapEvent(at: 1), from: 1.01))
        #expect(t.type == .hapticContinuous && t.time == 0 && abs(t.effectiveDuration - 0.02) < 1e-12 && t.intensity == 0.4)
        #expect(GameHapticMixer.trimmed(HapticManager.tapEvent(at: 1), from: 1.03) == nil)
        #expect(GameHapticMixer().pending.isEmpty)
        var mixer = GameHapticMixer()
        let none = mixer.add([])
        #expect(none == nil)
    }
}

extension Array {
    func repeated(_ n: Int) -> [Element] { (0..<n).flatMap { _ in self } }
}
