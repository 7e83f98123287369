import Enobarbus
import Games
import Haptics
import Testing

/// Feel Your Vibe's tremolo felt (issue 26 item 9, seed 003's `triggerMultiPattern`): one pulse per tremolo
/// cycle on the session clock, whether or not a finger moves.
@Suite struct FeelYourVibeTremoloTests {
    /// Advances `game` at 60 frames a second over `from`…`to`; each pulse with the frame time it went out at.
    static func run(_ game: inout FeelYourVibe, from: Double, to: Double) -> [(event: HapticEvent, sentAt: Double)] {
        var out: [(HapticEvent, Double)] = []
        var t = from
        while t <= to + 1e-9 {
            for e in Script.haptics(game.advance(to: t, musicPosition: 0)) { out.append((e, t)) }
            t += 1.0 / 60
        }
        return out
    }

    @Test func atOneHertzAContinuousPulsePerCycleAtSevenTenthsOfTheDepth() {
        var game = FeelYourVibe()
        _ = game.start(at: 10)
        let pulses = Self.run(&game, from: 10, to: 13.2)
        // Cycles start at 11, 12, 13 (the engine's LFO starts at phase 0 with the game).
        #expect(pulses.map(\.event.time).map { ($0 * 1000).rounded() / 1000 } == [11, 12, 13])
        for p in pulses {
            #expect(p.event.type == .hapticContinuous && p.event.duration == 0.2)
            #expect(abs(p.event.intensity - 0.7 * 0.1) < 1e-9)
            // Scheduled ahead, by at most the lead: a page plays it on time.
            #expect(p.sentAt <= p.event.time && p.event.time - p.sentAt <= FeelYourVibe.pulseLead + 1e-9)
        }
    }

    @Test func aboveTwoHertzASharpPulsePerCycleThatGoesOnWhenTheFingerStops() {
        var game = FeelYourVibe()
        _ = game.start(at: 0)
        // Swipe at 4 Hz with the finger at x = 1 (full depth), then lift it and keep still.
        let frames = Script.swipe(rate: 4, from: 0, to: 2, x: 1)
        for f in frames { _ = game.handle(f); _ = game.advance(to: f.timestamp, musicPosition: 0) }
        _ = game.handle(Script.lift(2.01))
        #expect(abs(game.frequency - 4) < 0.05 && game.depth == 1)
        let pulses = Self.run(&game, from: 2.02, to: 4.02).map(\.event)
        #expect(pulses.count >= 7 && pulses.count <= 9, "\(pulses.count) pulses in 2 s at \(game.frequency) Hz")
        for (a, b) in zip(pulses, pulses.dropFirst()) { #expect(abs((b.time - a.time) - 1 / game.frequency) < 1e-6) }
        for p in pulses {
            #expect(p.type == .hapticTransient)
            #expect(abs(p.intensity - 0.6) < 1e-9)
        }
    }

    @Test func noPulseBeforeTheStartOrAfterLeaving() {
        var game = FeelYourVibe()
        #expect(Self.run(&game, from: 0, to: 2).isEmpty)
        _ = game.start(at: 2)
        #expect(Self.run(&game, from: 2, to: 3.1).count == 1)
        _ = game.leave(at: 3.1)
        #expect(Self.run(&game, from: 3.1, to: 6).isEmpty)
    }
}
