import Enobarbus
import Horatio
import Testing

@Suite struct SourceLifecycleTests {
    func touch(_ slot: Int, _ t: Double, x: Float = 0.5) -> TrackingFrame {
        .touch(TouchFrame(slot: slot, timestamp: t, x: x, y: 0.5))
    }

    @Test func appearUpdateAndTimeOut() {
        var life = SourceLifecycle(timeout: 0.25)
        #expect(life.ingest(touch(0, 0.0)) == [.appeared(touch(0, 0.0))])
        #expect(life.ingest(touch(0, 0.1, x: 0.6)) == [.updated(touch(0, 0.1, x: 0.6))])
        #expect(life.advance(to: 0.35).isEmpty, "exactly the timeout: still present")
        #expect(life.advance(to: 0.36) == [.lost(.touch(0), timestamp: 0.36, reason: .timedOut)])
        #expect(life.snapshot.present.isEmpty)
        #expect(life.advance(to: 1).isEmpty)
        #expect(life.ingest(touch(0, 1.0)) == [.appeared(touch(0, 1.0))], "re-acquired: appears again")
    }

    @Test func explicitEndIsLostImmediately() {
        var life = SourceLifecycle()
        _ = life.ingest(touch(2, 0))
        #expect(life.ingest(.ended(.touch(2), timestamp: 0.05)) == [.lost(.touch(2), timestamp: 0.05, reason: .ended)])
        #expect(life.ingest(.ended(.touch(2), timestamp: 0.06)).isEmpty, "ending an absent source is no event")
    }

    @Test func sourcesAreIndependentAndTimeoutIsConfigurable() {
        var life = SourceLifecycle(timeout: 1.0)
        let face = TrackingFrame.face(FaceFrame(timestamp: 0))
        let events = life.ingest([face, touch(1, 0)], at: 0)
        #expect(events.map(\.source) == [.face, .touch(1)])
        _ = life.ingest([touch(1, 0.9)], at: 0.9)
        #expect(life.advance(to: 1.5) == [.lost(.face, timestamp: 1.5, reason: .timedOut)])
        #expect(life.snapshot.present == [.touch(1)])
        #expect(life.loseAll(at: 2) == [.lost(.touch(1), timestamp: 2, reason: .ended)])
    }

    @Test func identicalFrameIsNoUpdate() {
        var life = SourceLifecycle()
        _ = life.ingest(touch(0, 0))
        #expect(life.ingest(touch(0, 0)).isEmpty)
    }

    @Test func eventsAreTheDiffOfSnapshots() {
        let old = SourceSnapshot().applying(touch(0, 0)).applying(touch(1, 0))
        let new = SourceSnapshot().applying(touch(1, 0.1, x: 0.7)).applying(.face(FaceFrame(timestamp: 0.1)))
        let events = SourceSnapshot.events(from: old, to: new, at: 0.1, reason: .ended)
        #expect(events == [
            .lost(.touch(0), timestamp: 0.1, reason: .ended),
            .updated(touch(1, 0.1, x: 0.7)),
            .appeared(.face(FaceFrame(timestamp: 0.1))),
        ])
    }
}

@Suite struct TrackingInputTests {
    @Test func packetsBecomeLifecycleEvents() {
        var input = TrackingInput()
        let down = OSCPacket.message(OSCMessage("/1/multixy1/1", [.float32(0.2), .float32(0.3)]))
        let up = OSCPacket.message(OSCMessage("/1/multixy1/1/z", [.float32(0)]))
        // TouchOSC sends no frame end: its frame closes after 5 ms of quiet, stamped with its arrival.
        #expect(input.ingest(down, at: 0).isEmpty)
        #expect(input.advance(to: 0.004).isEmpty)
        #expect(input.advance(to: 0.005) == [.appeared(.touch(TouchFrame(slot: 0, timestamp: 0, x: 0.2, y: 0.3)))])
        #expect(input.ingest(up, at: 0.1).isEmpty)
        #expect(input.advance(to: 0.105) == [.lost(.touch(0), timestamp: 0.1, reason: .ended)])
        _ = input.ingest(down, at: 0.2)
        #expect(input.advance(to: 0.21).count == 1)
        #expect(input.advance(to: 0.3).isEmpty)
        #expect(input.advance(to: 0.5) == [.lost(.touch(0), timestamp: 0.5, reason: .timedOut)])
    }
}
