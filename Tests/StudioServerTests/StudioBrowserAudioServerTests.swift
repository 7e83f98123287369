import Enobarbus
import Foundation
import LiveHost
import Studio
import StudioServer
import ProsperoTestSupport
import Testing

/// Browser audio over a real WebSocket: the render thread's blocks reach a client subscribed to `audio`
/// as contiguous 0x10 frames at the sample rate; a client not subscribed gets none; the page's report
/// steers the render rate within ±0.05 % and shows on the status.
@Suite("Studio browser audio server", .serialized)
struct StudioBrowserAudioServerTests {
    @Test("a client subscribed to audio receives contiguous PCM frames at the render rate")
    func stream() throws {
        let studio = try StudioTestServer(audio: { StudioBrowserDriver(engines: $2, active: 0, tap: $1, fanOut: $0) })
        defer { studio.stop() }
        let driver = try #require(studio.audio as? StudioBrowserDriver)
        driver.start(stop: studio.stopper)
        defer { studio.stopper.request(.requested); driver.waitUntilStopped() }
        let subscribed = MonotonicClock.now()
        let (listener, _) = try studio.socket(subscribe: #"["audio"]"#)
        let (other, _) = try studio.socket(subscribe: #"["state"]"#)
        #expect(studio.session.audioListeners.count == 1)

        var sequences: [UInt32] = []
        var frames = 0
        var last = 0.0
        var sinceFirstBlock: MachineStopwatch?
        while sequences.count < 300, let frame = listener.readFrame() {
            guard frame.opcode == 2, frame.payload.first == 0x10 else { continue }
            let pcm = try StudioPCMFrame.decode(frame.payload)
            #expect(pcm.sampleRate == 48_000)
            #expect(pcm.frameCount == StudioBrowserDriver.defaultBlockFrames)
            let t = MonotonicClock.now()
            if sinceFirstBlock == nil { sinceFirstBlock = MachineStopwatch() }
            frames += pcm.frameCount
            last = t
            sequences.append(pcm.sequence)
        }
        #expect(sequences.count == 300)
        // Contiguous: every block once, in order.
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        // 300 blocks paced by the render clock: about 48 000 frames a second. It may never run ahead of real
        // time: counted from before the subscription, so that first blocks a loaded machine delivered late and
        // then in a burst cannot look fast. Nor fall far behind: counted from the first block's arrival, so that
        // a slow connection on a loaded machine cannot look slow (the lower bound is loose: late delivery), and in
        // the machine's time: the seconds in which some task waited for a CPU are taken off, at most three
        // quarters of the wall time (28 644 frames/s of wall time beside the other test processes).
        let sinceSubscription = Double(frames) / (last - subscribed)
        let time = sinceFirstBlock?.read() ?? (elapsed: 0, stalled: 0, machine: 0)
        let sinceFirst = Double(frames - StudioBrowserDriver.defaultBlockFrames) / time.machine
        #expect(sinceSubscription < 52_000, "\(sinceSubscription) frames/s since the subscription")
        #expect(sinceFirst > 30_000, "\(sinceFirst) frames/s of the machine's time since the first block (\(time.elapsed) s, \(time.stalled) s of them stalled)")

        // The page's report steers; it shows on the status (latency = one block + the page's latency).
        listener.sendText(#"{"type":"audio","fill":40,"target":30,"latency":42,"dropouts":1}"#)
        var status = driver.status(at: MonotonicClock.now())
        for _ in 0..<100 where status.listeners != 1 || status.latencyMs < 40 {
            Thread.sleep(forTimeInterval: 0.02)
            status = driver.status(at: MonotonicClock.now())
        }
        #expect(status.backend == .browser)
        #expect(status.listeners == 1)
        #expect(abs(status.latencyMs - (42 + 256.0 / 48)) < 0.01)
        #expect(status.xruns >= 1)
        // 10 ms above target asks for the full −0.05 %.
        #expect(abs(driver.ratio - 0.9995) < 1e-9)

        // The client that did not subscribe got no PCM (only text, if anything).
        other.sendText(#"{"type":"ping","t":1}"#)
        while let f = other.readFrame() {
            #expect(!(f.opcode == 2 && f.payload.first == 0x10))
            if f.opcode == 1, String(decoding: f.payload, as: UTF8.self).contains("pong") { break }
        }
    }
}
