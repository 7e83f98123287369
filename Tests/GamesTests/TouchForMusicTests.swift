import Enobarbus
import Games
import Haptics
import Testing

@Suite struct TouchForMusicTests {
    @Test func heightSetsTheVolumeWithARampAndReleaseHoldsIt() {
        var game = TouchForMusic()
        #expect(Script.audio(game.start(at: 0)).contains(.musicLevel(0.5, ramp: 1.5)))
        let a = game.handle(Script.touch(1, 0.3, 0.2))
        #expect(Script.audio(a) == [.musicLevel(0.8, ramp: 0.1)])
        _ = game.handle(Script.touch(1.1, 0.3, 0.75))
        #expect(game.volume == 0.25)
        let up = game.handle(Script.lift(1.2))
        #expect(Script.audio(up).isEmpty && game.volume == 0.25, "the volume holds on release")
    }

    @Test func everyInteractionIsFelt() {
        var game = TouchForMusic()
        _ = game.start(at: 0)
        var events: [HapticEvent] = []
        events += Script.haptics(game.handle(Script.touch(1, 0.5, 0.05)))
        #expect(events == [HapticManager.tapEvent(at: 1)])
        // Drag from volume 0.95 down to 0.05: the volume crosses 0.9, 0.8 … 0.1 (nine tenths).
        for k in 1...90 { events += Script.haptics(game.handle(Script.touch(1 + Double(k) * 0.01, 0.5, 0.05 + Double(k) * 0.01))) }
        #expect(events.count == 10)
        events += Script.haptics(game.handle(Script.lift(2)))
        #expect(events.count == 11 && events.last == HapticManager.tapEvent(at: 2))
        #expect(events.allSatisfy { $0.intensity == 0.4 && $0.sharpness == 0.2 && $0.type == .hapticTransient })
    }

    @Test func circleScalesAndFadesWithEaseInOut() {
        var game = TouchForMusic()
        _ = game.start(at: 0)
        #expect(game.circleAppearance(at: 0.5).opacity == 0, "hidden until the first touch")
        _ = game.handle(Script.touch(1, 0.3, 0.6))
        let start = game.circleAppearance(at: 1), middle = game.circleAppearance(at: 1.1), end = game.circleAppearance(at: 1.2)
        #expect(start.scale == 1 && start.opacity == 0)
        #expect(abs(middle.scale - 1.1) < 1e-6 && abs(middle.opacity - 0.5) < 1e-6, "easeInOut is half way at half time")
        #expect(end.scale == 1.2 && end.opacity == 1 && end.x == Double(Float(0.3)) && abs(end.y - 0.6) < 1e-6)
        // A quarter of the way in time, ease-in-out has moved much less than a quarter.
        #expect(game.circleAppearance(at: 1.05).scale < 1.05)
        _ = game.handle(Script.lift(2))
        #expect(game.circleAppearance(at: 2.2) == .init(x: Double(Float(0.3)), y: Double(Float(0.6)), scale: 1, opacity: 0.5))
    }

    @Test func easeInOutMatchesTheCubicBezier() {
        // cubic-bezier(0.42, 0, 0.58, 1) is symmetric: p(x) + p(1 − x) = 1; p(0.25) from the curve's
        // parametric form at s = 0.3: x = 3·0.49·0.3·0.42 + 3·0.7·0.09·0.58 + 0.027 = 0.32184,
        // y = 3·0.7·0.09 + 0.027 = 0.216.
        #expect(abs(EaseInOut.progress(0.32184) - 0.216) < 1e-4)
        #expect(abs(EaseInOut.progress(0.3) + EaseInOut.progress(0.7) - 1) < 1e-9)
        #expect(EaseInOut.progress(-1) == 0 && EaseInOut.progress(2) == 1)
    }

    @Test func homeButtonAfterTenSecondsWithoutTouch() {
        var game = TouchForMusic()
        _ = game.start(at: 0)
        _ = game.handle(Script.touch(3, 0.5, 0.5))
        _ = game.handle(Script.lift(4))
        #expect(game.advance(to: 13.99, musicPosition: 0).isEmpty)
        #expect(game.advance(to: 14, musicPosition: 0) == [.homeButton(visible: true)])
    }
}
