import AllocationCounting
import Foundation
import Studio
import Synchronization
import Testing

/// The browser-audio path that runs per block (render + encode) allocates nothing, and its output is the
/// engine's sound; the page's `audio` report reaches the session's callback and is validated.
@Suite("Studio browser audio")
struct StudioBrowserAudioTests {
    @Test(.enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"))
    func renderAndEncodeAllocateNothing() throws {
        try #require(AllocationCounter.isAvailable)
        let tone = StudioToneAudio()
        tone.prepare(sampleRate: 48_000, maximumFrames: 256)
        tone.send(frequency: 750, amplitude: 0.5)
        let engine: any StudioAudioEngine = tone
        let renderer = StudioPCMBlockRenderer(sampleRate: 48_000, blockFrames: 256)
        _ = renderer.render(engine)  // warm-up
        var bytes = 0
        let allocations = AllocationCounter.allocations {
            for _ in 0..<200 { bytes += renderer.render(engine).count }
        }
        #expect(allocations == 0)
        #expect(bytes == 200 * (13 + 256 * 4))
        #expect(renderer.sequence == 201)
    }

    @Test func theEncodedBlockIsTheEnginesSound() throws {
        let tone = StudioToneAudio()
        tone.prepare(sampleRate: 48_000, maximumFrames: 256)
        tone.send(frequency: 750, amplitude: 0.5)
        let renderer = StudioPCMBlockRenderer(sampleRate: 48_000, blockFrames: 256)
        // 20 ms glide: after 0.5 s the tone is at its target (750 Hz: exactly 4 cycles per 256 frames).
        for _ in 0..<94 { _ = renderer.render(tone) }
        let frame = try StudioPCMFrame.decode(Array(renderer.render(tone)))
        #expect(frame.sequence == 94)
        #expect(frame.sampleRate == 48_000)
        #expect(frame.left == frame.right)
        let peak = frame.left.map(abs).max()!
        #expect(abs(peak - 0.5) < 0.002)
        let crossings = zip(frame.left, frame.left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect((3...5).contains(crossings))
        // No engine: silence, and the sequence still counts.
        let silent = try StudioPCMFrame.decode(Array(renderer.render(nil)))
        #expect(silent.sequence == 95)
        #expect(silent.left.allSatisfy { $0 == 0 })
    }

    @Test func aPagesReportReachesTheDriverAndBadReportsAreRefused() {
        let driver = ReportRecorder()
        let session = StudioSession(instruments: [StudioToneInstrument()], audio: driver)
        let texts = Mutex<[String]>([])
        let c = session.connect { m in if case .text(let t) = m { texts.withLock { $0.append(t) } } }
        session.receive(Array(#"{"type":"hello","subscribe":["audio"]}"#.utf8), from: c, now: 0)
        #expect(session.audioListeners.count == 1)
        session.receive(Array(#"{"type":"audio","fill":31.5,"target":30,"latency":44.2,"dropouts":2}"#.utf8), from: c, now: 1)
        let got = driver.received.withLock { $0 }
        #expect(got.count == 1)
        #expect(got.first?.0 == StudioAudioReport(fillMs: 31.5, targetMs: 30, latencyMs: 44.2, dropouts: 2))
        #expect(got.first?.1 == session.audioListeners.first)
        texts.withLock { $0.removeAll() }
        for bad in [#"{"type":"audio","fill":-1,"target":30,"latency":1,"dropouts":0}"#,
                    #"{"type":"audio","fill":30,"target":30,"latency":1,"dropouts":0.5}"#,
                    #"{"type":"audio","fill":30,"latency":1,"dropouts":0}"#] {
            session.receive(Array(bad.utf8), from: c, now: 2)
        }
        #expect(driver.received.withLock { $0.count } == 1)
        let errors = texts.withLock { $0 }.filter { $0.contains(#""code":"bad_message""#) }
        #expect(errors.count == 3)
    }
}

/// An audio output that records the reports the session hands it.
final class ReportRecorder: StudioAudioOutput {
    let received = Mutex<[(StudioAudioReport, String)]>([])
    func select(_ index: Int?) {}
    func report(_ report: StudioAudioReport, client: String, at time: Double) { received.withLock { $0.append((report, client)) } }
}
