import Ariel
import Enobarbus
import Hecate
import LiveHost
import Studio
import Synchronization
import Testing

/// The studio's Hecate plays through the live adapter `prospero hecate` drives
/// (``HecateLiveInstrument``): face frames at their due sample, Wekinator's outputs and the MIDI
/// clock's tempo reach its engine as they do on the command line (the parity table in
/// docs/live-parity.md; the JACK tests run the same against `prospero studio`).
@Suite("Hecate studio instrument: the live adapter")
struct HecateStudioLiveAdapterTests {
    final class FixedClock: LiveClock, @unchecked Sendable {
        let tempo = Mutex<Double?>(nil)
        var bpm: Double? { tempo.withLock { $0 } }
    }

    /// Every arrival is due at one fixed frame.
    final class FixedFrameClock: LiveFrameClock, @unchecked Sendable {
        let due: UInt32
        init(due: UInt32) { self.due = due }
        func dueFrame(forArrival arrival: Double) -> UInt32? { due }
    }

    /// Renders `blocks` 256-frame periods from frame time `start` as the JACK driver does (with the
    /// period's start frame); returns the left channel.
    static func render(_ hecate: HecateStudioInstrument, blocks: Int, start: UInt32 = 0) -> [Float] {
        var out: [Float] = []
        var l = [Float](repeating: 0, count: 256), r = l
        for b in 0..<blocks {
            l.withUnsafeMutableBufferPointer { lp in
                r.withUnsafeMutableBufferPointer { rp in
                    hecate.audio.render(frameCount: 256, left: lp.baseAddress!, right: rp.baseAddress!,
                                        midi: UnsafeBufferPointer(start: nil, count: 0), blockStart: start &+ UInt32(b * 256))
                }
            }
            out += l
        }
        return out
    }

    @Test("a face frame's commands play at its due sample, not at the period's start")
    func faceFramesAreDueAtTheirSample() {
        let due: UInt32 = 1_000
        let hecate = HecateStudioInstrument(frameClock: FixedFrameClock(due: due))
        hecate.audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        _ = Self.render(hecate, blocks: 2)  // silent: no face yet
        hecate.receive([HecateStudioInstrumentTests.face(jaw: 0.6, at: 1)], at: 1)
        let out = Self.render(hecate, blocks: 8, start: 512)
        let first = out.firstIndex { abs($0) > 1e-7 }.map { 512 + $0 }
        let lookAhead = hecate.audio.processingLatency
        // The fade starts at the due frame; the limiter's look-ahead delays the output by its latency.
        #expect(first.map { $0 >= Int(due) + lookAhead && $0 < Int(due) + lookAhead + 48 } ?? false,
                "first sound at \(String(describing: first)), due \(due) + look-ahead \(lookAhead)")
        #expect(hecate.host.lateCommandCount == 0)
    }

    @Test("Wekinator's outputs play it as a learned face, through the session as from the shared input")
    func wekinatorOutputsPlayIt() throws {
        let hecate = HecateStudioInstrument()
        let session = StudioSession(instruments: [hecate])
        hecate.audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        // Output 1 is browInnerUp: raised eyebrows add the 3rd.
        StudioLiveInstrument(session: session).receiveControls([0, 1], at: 0)
        _ = HecateStudioInstrumentTests.render(hecate, blocks: 200)
        let snapshot = try #require(hecate.host.latestSnapshot().snapshot)
        #expect(snapshot.third > 0.95 && snapshot.faceFade > 0.5, "\(snapshot)")
    }

    @Test("the tempo follows the MIDI clock and the HUD shows it; a mute keeps Wekinator's face out")
    func followsTheMIDIClock() throws {
        let clock = FixedClock()
        let hecate = HecateStudioInstrument(clock: clock)
        hecate.audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        hecate.advance(to: 0)
        #expect(hecate.live.followedBPM == nil)
        clock.tempo.withLock { $0 = 132 }
        hecate.advance(to: 0.1)
        #expect(hecate.live.followedBPM == 132)
        // 20 blocks (5120 frames) hold at least one snapshot at any snapshot rate from 10 Hz up.
        _ = HecateStudioInstrumentTests.render(hecate, blocks: 20)
        let frame = try #require(hecate.frameJSON(now: 1))
        #expect(frame["clockBPM"] == .number(132))

        _ = try hecate.apply(set: "hecate.muted", value: true)
        hecate.receiveControls([0, 1], at: 1)
        _ = HecateStudioInstrumentTests.render(hecate, blocks: 200)
        let snapshot = try #require(hecate.host.latestSnapshot().snapshot)
        #expect(snapshot.faceFade < 0.01, "muted: \(snapshot)")
    }
}
