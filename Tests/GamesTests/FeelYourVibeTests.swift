import Enobarbus
import Foundation
import Games
import Haptics
import Testing

@Suite struct FeelYourVibeTests {
    static func play(_ frames: [TrackingFrame], _ game: inout FeelYourVibe) -> [GameAction] {
        frames.flatMap { game.handle($0) }
    }

    @Test func startsAtTheSeedsLFO() {
        var game = FeelYourVibe()
        #expect(Script.audio(game.start(at: 0)).contains(.tremolo(rate: 1, depth: 0.1)))
        #expect(game.frequency == 1 && game.depth == 0.1)
    }

    @Test(arguments: [0.5, 1.0, 2.0, 3.0, 6.0])
    func swipeRateBecomesTheLFORate(rate: Double) {
        var game = FeelYourVibe()
        _ = game.start(at: 0)
        _ = Self.play(Script.swipe(rate: rate, from: 0, to: 4 / rate + 0.3), &game)
        // One up-and-down is one cycle: crossings every 1/(2·rate) s.
        #expect(abs(game.frequency - rate) < 0.01 * rate + 0.005, "rate \(rate): \(game.frequency)")
        #expect(game.crossings.count >= 8)
        for (a, b) in zip(game.crossings, game.crossings.dropFirst()) { #expect(abs((b - a) - 1 / (2 * rate)) < 0.004) }
    }

    @Test func rateIsAMovingAverageOfFourCrossingsClampedTo10Hz() {
        var game = FeelYourVibe()
        _ = game.start(at: 0)
        var frames = Script.swipe(rate: 1, from: 0, to: 3.1)
        _ = Self.play(frames, &game)
        #expect(abs(game.frequency - 1) < 0.02)
        // Swipe at 3 Hz from where the finger is: the average moves over four crossings, then settles.
        frames = Script.swipe(rate: 3, from: 3.2, to: 5)
        var rates: [Double] = []
        for f in frames {
            let before = game.crossings.count
            _ = game.handle(f)
            if game.crossings.count > before { rates.append(game.frequency) }
        }
        #expect(rates.count > 6)
        #expect(rates[1] < 2.5 && abs(rates[5] - 3) < 0.05 && abs(rates.last! - 3) < 0.05)
        var fast = FeelYourVibe()
        _ = Self.play(Script.swipe(rate: 20, from: 0, to: 1, amplitude: 0.2), &fast)
        #expect(fast.frequency <= 10)
    }

    @Test func horizontalPositionSetsDepth() {
        var game = FeelYourVibe()
        _ = game.start(at: 0)
        #expect(FeelYourVibe.depth(forX: 0) == 0.1 && FeelYourVibe.depth(forX: 1) == 1)
        #expect(abs(FeelYourVibe.depth(forX: 0.5) - 0.55) < 1e-12)
        let a = game.handle(Script.touch(1, 0.25, 0.2))
        #expect(abs(game.depth - 0.325) < 1e-6)
        guard case .tremolo(let rate, let depth)? = Script.audio(a).last else { Issue.record("no tremolo"); return }
        #expect(rate == 1 && abs(Double(depth) - 0.325) < 1e-6)
    }

    @Test func eachCrossingGivesOneAdaptiveHaptic() {
        var slow = FeelYourVibe()
        _ = slow.start(at: 0)
        let slowHaptics = Script.haptics(Self.play(Script.swipe(rate: 1, from: 0, to: 3), &slow))
        #expect(slowHaptics.count == slow.crossings.count)
        #expect(zip(slowHaptics, slow.crossings).allSatisfy { abs($0.time - $1) < 1e-12 })
        #expect(slowHaptics.allSatisfy { $0.type == .hapticContinuous && $0.duration == 0.2 && $0.sharpness == 0.3 })
        // Peak swipe speed through the line is 0.3·2π·1 = 1.885 heights/s → amplitude 1.885/4, intensity 0.7 × that.
        let expected = 0.7 * (0.3 * 2 * Double.pi * 1) / 4
        #expect(slowHaptics.dropFirst().allSatisfy { abs($0.intensity - expected) < 0.01 }, "\(slowHaptics.map(\.intensity))")

        var quick = FeelYourVibe()
        _ = quick.start(at: 0)
        let quickHaptics = Script.haptics(Self.play(Script.swipe(rate: 4, from: 0, to: 2), &quick))
        // Above 2 Hz (once the average passes 2) the events are transients at 0.6 × amplitude (speed 7.5 → 1).
        let late = quickHaptics.suffix(6)
        #expect(late.allSatisfy { $0.type == .hapticTransient && abs($0.intensity - 0.6) < 1e-9 && $0.sharpness == 0.5 })
    }

    @Test func liftingRestartsTheTiming() {
        var game = FeelYourVibe()
        _ = game.start(at: 0)
        _ = game.handle(Script.touch(0, 0.5, 0.4))
        _ = game.handle(Script.touch(0.1, 0.5, 0.6))
        _ = game.handle(Script.lift(0.2))
        _ = game.handle(Script.touch(5, 0.5, 0.4))
        _ = game.handle(Script.touch(5.1, 0.5, 0.6))
        #expect(game.crossings.count == 2 && game.frequency == 1, "first crossings of two touches set no rate")
    }

    @Test func homeButtonAfterTenSecondsWithoutTouch() {
        var game = FeelYourVibe()
        _ = game.start(at: 1)
        // Besides the tremolo's pulses (FeelYourVibeTremoloTests), nothing until the tenth second.
        let notFelt = { (actions: [GameAction]) in actions.filter { if case .haptic = $0 { false } else { true } } }
        #expect(notFelt(game.advance(to: 10.9, musicPosition: 0)).isEmpty)
        #expect(notFelt(game.advance(to: 11, musicPosition: 0)) == [.homeButton(visible: true)])
        #expect(game.handle(Script.touch(11.5, 0.5, 0.5)).first == .homeButton(visible: false))
    }

    @Test func lfoFollowsTheSeedsContract() {
        var lfo = VibeLFO()
        lfo.frequency = 2
        lfo.amplitude = 0.5
        // phase += 2π·f·dt; output = a·sin(phase).
        #expect(abs(lfo.update(deltaTime: 0.125) - 0.5) < 1e-12)
        #expect(abs(lfo.update(deltaTime: 0.25) - -0.5) < 1e-12)
        lfo.frequency = 50
        #expect(lfo.frequency == 10)
        #expect(VibeLFO.gain(value: 0.5, amplitude: 0.5) == 1 && VibeLFO.gain(value: -0.5, amplitude: 0.5) == 0.5)
    }
}
