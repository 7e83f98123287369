import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoTestSupport
import Studio
import StudioServer
import Synchronization
import Testing

/// Hecate's screen in real headless Chromium (Browser/hecate_screen.py): a studio with Hecate active,
/// the shared OSC input on a free UDP port (python-osc sends the faces) and a render thread standing in
/// for the audio driver, so that the engine publishes the snapshots the HUD shows. Screenshots: hecate.png
/// and immerse.png (in `StudioBrowserTests.screenshots`).
@Suite("Hecate in Chromium", .serialized, .takingTurns())
struct HecateBrowserTests {
    static var available: Bool {
        StudioBrowserTests.available && TestPeers.python(module: "pythonosc")
    }

    /// Renders the active instrument's engine in real time, 256 frames at a time, until stopped
    /// (what the JACK driver does, without a sound card).
    final class RenderThread: @unchecked Sendable {
        let running = Atomic<Bool>(true)
        let done = LiveStop()

        init(session: StudioSession) {
            let engines = session.audioEngines
            for e in engines { e.prepare(sampleRate: 48_000, maximumFrames: 256) }
            Thread.detachNewThread { [self] in
                let l = UnsafeMutablePointer<Float>.allocate(capacity: 256), r = UnsafeMutablePointer<Float>.allocate(capacity: 256)
                defer { l.deallocate(); r.deallocate(); self.done.request(.requested) }
                let period = 256.0 / 48_000
                var next = Date().timeIntervalSince1970
                while self.running.load(ordering: .relaxed) {
                    if let a = session.activeIndex {
                        l.update(repeating: 0, count: 256)
                        r.update(repeating: 0, count: 256)
                        engines[a].render(frameCount: 256, left: l, right: r)
                    }
                    next += period
                    let wait = next - Date().timeIntervalSince1970
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) } else if wait < -0.5 { next = Date().timeIntervalSince1970 }
                }
            }
        }

        func stop() {
            running.store(false, ordering: .relaxed)
            _ = done.wait(timeout: .seconds(5))
        }
    }

    @Test("the Hecate page: no console errors, guide, chord bar → engine, OSC faces → HUD, Immerse in WebGL and 2D; screenshots",
          .enabled(if: TestPeers.enabled(available)))
    func hecatePage() async throws {
        try StudioBrowserTests.requirePeers()
        try TestPeers.require(TestPeers.python(module: "pythonosc"), "python-osc (pip install python-osc)")
        let studio = try StudioTestServer(instruments: [HecateStudioInstrument()])
        defer { studio.stop() }
        let session = studio.session, port = studio.port

        let udp = UDPDatagramSource(host: "127.0.0.1", port: 0)
        let stopInput = LiveStop()
        let input = LiveHost(source: udp, instrument: StudioLiveInstrument(session: session), stop: stopInput)
        try input.start()
        let inputDone = LiveStop()
        Thread.detachNewThread {
            _ = try? input.run()
            inputDone.request(.requested)
        }
        defer {
            stopInput.request(.requested)
            _ = inputDone.wait(timeout: .seconds(5))
        }
        let render = RenderThread(session: session)
        defer { render.stop() }

        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        try await StudioBrowserTests.run("hecate_screen.py", ["http://127.0.0.1:\(port)/hecate/", "\(udp.boundPort)",
                                                              StudioBrowserTests.screenshots.path], timeout: 300)
        // What the page asked for is what the engine plays: key D, chord V (from its snapshot).
        // (Read under the session's lock: its frame tick reads the same snapshots.)
        let played = session.withInstrument(HecateStudioInstrument.id) { instrument in
            (instrument as? HecateStudioInstrument).map { ($0.host.latestSnapshot().snapshot, $0.settings) }
        }
        let (snapshot, settings) = try #require(played ?? nil)
        #expect(snapshot?.key == 2 && snapshot?.chord == 5)
        #expect(settings.key == .d && settings.chord == .five && settings.packID == "cathedral")
    }
}
