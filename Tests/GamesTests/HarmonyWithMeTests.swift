import Enobarbus
import Games
import Haptics
import Testing

@Suite struct HarmonyWithMeTests {
    typealias Game = HarmonyWithMe<GameRandom>
    static let aspect = 9.0 / 19.5

    /// Runs the model with the music position equal to the session time (mod the loop) in 10 ms steps.
    static func run(_ game: inout Game, from: Double, to: Double, step: Double = 0.01) -> [(Double, GameAction)] {
        var out: [(Double, GameAction)] = []
        var t = from
        while t <= to + 1e-9 {
            for a in game.advance(to: t, musicPosition: t.truncatingRemainder(dividingBy: GameSong.length)) { out.append((t, a)) }
            t += step
        }
        return out
    }

    @Test func scheduleIsEveryOtherBarForOneBar() {
        let s = HarmonySchedule.song
        #expect(s.circleTimes.count == 8)
        for (k, t) in s.circleTimes.enumerated() { #expect(abs(t - 2.4 * Double(2 * k + 1)) < 1e-9) }
        #expect(abs(s.circleDuration - 2.4) < 1e-12 && abs(s.loopLength - 38.4) < 1e-9)
        #expect([0.0, 9.59, 9.6, 19.3, 38.3].map(s.group) == [0, 0, 1, 2, 3])
    }

    @Test func circleAppearsAtItsMusicPositionAndStaysOneBar() throws {
        var game = Game(random: GameRandom(seed: 7), aspectRatio: Self.aspect)
        _ = game.start(at: 0)
        var shown: [Double] = [], hidden: [Double] = []
        var wasVisible = false
        var t = 0.0
        while t < GameSong.length + 0.015 {
            _ = game.advance(to: t, musicPosition: t.truncatingRemainder(dividingBy: GameSong.length))
            let visible = game.circle != nil
            if visible && !wasVisible { shown.append(t) }
            if !visible && wasVisible { hidden.append(t) }
            wasVisible = visible
            t += 0.01
        }
        try #require(shown.count == 8 && hidden.count == 8)
        for (k, s) in shown.enumerated() {
            let due = 2.4 * Double(2 * k + 1)
            #expect(s >= due - 1e-9 && s < due + 0.01 + 1e-9, "circle \(k) at \(s), due \(due)")
            #expect(abs(hidden[k] - (due + 2.4)) <= 0.01 + 1e-9)
        }
    }

    @Test func circlesFitOnTheScreen() {
        var game = Game(random: GameRandom(seed: 3), aspectRatio: Self.aspect)
        _ = game.start(at: 0)
        var t = 0.0
        var seen = 0
        while t < 10 * GameSong.length {
            _ = game.advance(to: t, musicPosition: t.truncatingRemainder(dividingBy: GameSong.length))
            if let c = game.circle {
                seen += 1
                #expect(c.x - c.radius >= 0 && c.x + c.radius <= 1)
                #expect(c.y - c.radius * Self.aspect >= 0 && c.y + c.radius * Self.aspect <= 1)
                #expect(c.radius == 0.15)
            }
            t += 0.5
        }
        #expect(seen > 0)
    }

    @Test func touchInsidePlaysAPhraseOfTheGroupWithAThickPulse() throws {
        var game = Game(random: GameRandom(seed: 11), aspectRatio: Self.aspect)
        _ = game.start(at: 0)
        _ = Self.run(&game, from: 0, to: 2.5)
        let c = try #require(game.circle)
        // Inside near the edge (x scaled by the width), outside just beyond the edge in y (scaled by the height).
        #expect(game.isInsideCircle(x: c.x + 0.99 * c.radius, y: c.y))
        #expect(game.isInsideCircle(x: c.x, y: c.y + 0.99 * c.radius * Self.aspect))
        #expect(!game.isInsideCircle(x: c.x, y: c.y + 1.01 * c.radius * Self.aspect))
        #expect(!game.isInsideCircle(x: c.x + 0.72 * c.radius, y: c.y + 0.72 * c.radius * Self.aspect))

        let outside = game.handle(Script.touch(2.6, c.x, min(1, c.y + 1.2 * c.radius * Self.aspect)))
        #expect(outside.isEmpty, "a touch outside does nothing")
        _ = game.handle(Script.lift(2.65))
        let inside = game.handle(Script.touch(2.7, c.x, c.y))
        let commands = Script.audio(inside)
        #expect(commands.count == 1)
        guard case .playHarmony(let index)? = commands.first else { Issue.record("no phrase"); return }
        #expect((0..<3).contains(index), "group 0 holds phrases 0…2")
        let pulse = Script.haptics(inside)
        #expect(pulse == HapticManager.heavy(at: 2.7).events)
        #expect(game.isPlayingHarmonySound)
    }

    @Test func noPhraseStartsWhileOnePlays() throws {
        var game = Game(random: GameRandom(seed: 5), aspectRatio: Self.aspect)
        _ = game.start(at: 0)
        _ = Self.run(&game, from: 0, to: 2.45)
        let c = try #require(game.circle)
        #expect(Script.audio(game.handle(Script.touch(2.5, c.x, c.y))).count == 1)
        _ = game.handle(Script.lift(2.55))
        // The phrase lasts 3 eighths + 0.95 of an eighth (1.185 s) plus the 0.3 s release: until 3.985 s.
        _ = Self.run(&game, from: 2.5, to: 3.9)
        #expect(game.handle(Script.touch(3.95, c.x, c.y)).isEmpty)
        _ = game.handle(Script.lift(3.96))
        _ = Self.run(&game, from: 3.9, to: 4.0)
        #expect(Script.audio(game.handle(Script.touch(4.0, c.x, c.y))).count == 1)
        #expect(game.phrasesPlayed.count == 2)
    }

    @Test func soundGroupsAdvanceThroughTheSong() throws {
        var game = Game(random: GameRandom(seed: 9), aspectRatio: Self.aspect)
        _ = game.start(at: 0)
        var t = 0.0
        var groupsHit: [Int: Set<Int>] = [:]
        var lastTap = -10.0
        while t < GameSong.length - 0.01 {
            _ = game.advance(to: t, musicPosition: t)
            if let c = game.circle, t - lastTap > 1.6 {
                let actions = game.handle(Script.touch(t, c.x, c.y))
                _ = game.handle(Script.lift(t + 0.001))
                if case .playHarmony(let i)? = Script.audio(actions).first {
                    groupsHit[game.soundGroup, default: []].insert(i)
                    lastTap = t
                }
            }
            t += 0.05
        }
        #expect(Set(groupsHit.keys) == [0, 1, 2, 3])
        for (g, phrases) in groupsHit { #expect(phrases.allSatisfy { $0 / 3 == g }, "group \(g): \(phrases)") }
    }

    @Test func theMusicsLoopResetsTheGame() {
        var game = Game(random: GameRandom(seed: 2), aspectRatio: Self.aspect)
        _ = game.start(at: 0)
        _ = game.advance(to: 36.5, musicPosition: 36.5)
        #expect(game.circle != nil && game.soundGroup == 3)
        _ = game.advance(to: 38.45, musicPosition: 0.05)
        #expect(game.circle == nil && game.soundGroup == 0 && game.resets == 1)
        // The schedule starts over: the first circle again at music position 2.4.
        _ = game.advance(to: 40.79, musicPosition: 2.39)
        #expect(game.circle == nil)
        _ = game.advance(to: 40.8, musicPosition: 2.4)
        #expect(game.circle != nil)
    }

    @Test func musicFadesInAndOut() {
        var game = Game(random: GameRandom(seed: 1))
        #expect(Script.audio(game.start(at: 0)).contains(.musicLevel(1, ramp: 1.5)))
        #expect(Script.audio(game.leave(at: 5)) == [.masterLevel(0, ramp: 1.0)])
    }

    @Test func homeButtonAfterTenSecondsWithoutTouch() {
        var game = Game(random: GameRandom(seed: 1))
        _ = game.start(at: 0)
        #expect(game.advance(to: 9.99, musicPosition: 9.99).isEmpty)
        #expect(game.advance(to: 10, musicPosition: 10) == [.homeButton(visible: true)])
        #expect(game.showsHomeButton)
        #expect(game.handle(Script.touch(12, 0.01, 0.99)) == [.homeButton(visible: false)])
        _ = game.handle(Script.lift(12.1))
        #expect(game.advance(to: 22.09, musicPosition: 22.09).isEmpty)
        #expect(game.advance(to: 22.1, musicPosition: 22.1) == [.homeButton(visible: true)])
    }

    @Test func theSameSeedGivesTheSameGame() {
        func circles(_ seed: UInt64) -> [Double] {
            var game = Game(random: GameRandom(seed: seed))
            _ = game.start(at: 0)
            var xs: [Double] = []
            for k in 0..<8 {
                _ = game.advance(to: 2.4 * Double(2 * k + 1), musicPosition: 2.4 * Double(2 * k + 1))
                xs.append(game.circle?.x ?? -1)
            }
            return xs
        }
        #expect(circles(4) == circles(4))
        #expect(circles(4) != circles(5))
    }
}
