import Enobarbus
import Games
import Testing

/// The one game adapter `prospero game` (``GameSession``) and the studio's game screens play through.
@Suite struct GamePlayerTests {
    /// The first circle's centre (x, y) of a Harmony game played from `time` for one circle interval (10 ms steps).
    static func firstCircle(_ player: inout GamePlayer, from time: Double) -> [Double]? {
        var t = time
        while t < time + 4 {
            _ = player.advance(to: t, musicPosition: (t - time).truncatingRemainder(dividingBy: GameSong.length))
            if let circle = (player.model as? HarmonyWithMe<GameRandom>)?.circle { return [circle.x, circle.y] }
            t += 0.01
        }
        return nil
    }

    @Test("a game runs from start to leave; before and after, frames and time do nothing")
    func lifecycle() {
        for kind in GameKind.allCases {
            var player = GamePlayer(kind: kind, seed: 3)
            #expect(!player.isRunning)
            #expect(player.handle(.touch(TouchFrame(slot: 0, timestamp: 0.1, x: 0.5, y: 0.5, pressure: 1))).isEmpty)
            #expect(player.advance(to: 30, musicPosition: 0).isEmpty, "\(kind): no home button without a game")
            #expect(!player.start(at: 0, aspectRatio: 0.5).isEmpty, "\(kind): the start sets the music")
            #expect(player.isRunning)
            let leaving = player.leave(at: 1)
            #expect(leaving.contains { if case .audio(.masterLevel(0, _)) = $0 { true } else { false } },
                    "\(kind): leaving fades the music out: \(leaving)")
            #expect(!player.isRunning)
            #expect(player.advance(to: 30, musicPosition: 0).isEmpty, "\(kind): a game that was left shows no home button")
        }
    }

    @Test("Harmony started over continues its random sequence; the same seed replays it exactly")
    func harmonyContinuesItsSequence() throws {
        var a = GamePlayer(kind: .harmony, seed: 11), b = GamePlayer(kind: .harmony, seed: 11)
        _ = a.start(at: 0, aspectRatio: 0.5)
        _ = b.start(at: 0, aspectRatio: 0.5)
        let first = try #require(Self.firstCircle(&a, from: 0))
        #expect(Self.firstCircle(&b, from: 0) == first, "the same seed, the same circle")
        _ = a.leave(at: 5)
        _ = a.start(at: 6, aspectRatio: 0.5)
        let again = try #require(Self.firstCircle(&a, from: 6))
        #expect(again != first, "a new game draws on from where the last one stopped")
        // Started over without leaving: the same continuation.
        _ = b.start(at: 6, aspectRatio: 0.5)
        #expect(Self.firstCircle(&b, from: 6) == again)
    }
}
