import CameraBridge
import CameraTools
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoTestSupport
import Studio
import StudioServer
import Synchronization
import Testing

/// The Hands page's camera end to end (Browser/hands_camera.py): Chromium's fake camera plays a video of a drawn
/// hand (scripts/camera/drawn_hand.py: no photograph of a hand ships in the camera venv's packages; scikit-image's
/// and matplotlib's sample pictures were tried and MediaPipe finds no real hand in any, see the script) and a
/// blank one into the page, which sends its frames (kind 0x21) over the WebSocket to the studio's camera desk
/// and the real camera bridge process in hands mode; the hands enter the live input (a `LiveHost` over the UDP
/// input merged with the cameras, as `prospero studio` runs it) and play the Hands instrument, rendered by a
/// thread standing in for the audio driver, which logs the output's level so that the test can say the synth
/// sounded while the hand was in view and stayed silent before it and with the blank video. Screenshot:
/// hands-camera.png.
/// (Part of the cameras' serialized suite: one Chromium with a fake camera and one bridge at a time.)
extension HecateCameraBrowserTests {
    /// Renders the active engine in real time and keeps each block's RMS with its time (`ProcessInfo.systemUptime`:
    /// CLOCK_MONOTONIC, the clock of Python's time.monotonic() in the script's marks).
    final class LevelLog: @unchecked Sendable {
        let running = Atomic<Bool>(true)
        let done = LiveStop()
        let blocks = Mutex<[(time: Double, rms: Double)]>([])

        init(session: StudioSession) {
            let engines = session.audioEngines
            for e in engines { e.prepare(sampleRate: 48_000, maximumFrames: 256) }
            Thread.detachNewThread { [self] in
                let l = UnsafeMutablePointer<Float>.allocate(capacity: 256), r = UnsafeMutablePointer<Float>.allocate(capacity: 256)
                defer { l.deallocate(); r.deallocate(); self.done.request(.requested) }
                let period = 256.0 / 48_000
                var next = ProcessInfo.processInfo.systemUptime
                while self.running.load(ordering: .relaxed) {
                    if let a = session.activeIndex {
                        l.update(repeating: 0, count: 256)
                        r.update(repeating: 0, count: 256)
                        engines[a].render(frameCount: 256, left: l, right: r)
                        var sum = 0.0
                        for i in 0..<256 { sum += Double(l[i] * l[i] + r[i] * r[i]) }
                        let rms = (sum / 512).squareRoot(), now = ProcessInfo.processInfo.systemUptime
                        blocks.withLock { $0.append((now, rms)) }
                    }
                    next += period
                    let wait = next - ProcessInfo.processInfo.systemUptime
                    if wait > 0 { Thread.sleep(forTimeInterval: wait) } else if wait < -0.5 { next = ProcessInfo.processInfo.systemUptime }
                }
            }
        }

        /// The loudest block between two times, in dBFS (−∞ for digital silence).
        func loudest(from start: Double, to end: Double) -> Double {
            let peak = blocks.withLock { $0.filter { $0.time >= start && $0.time <= end }.map(\.rms).max() ?? 0 }
            return 20 * log10(peak)
        }

        func stop() {
            running.store(false, ordering: .relaxed)
            _ = done.wait(timeout: .seconds(5))
        }
    }

    static var drawnHand: String { HecateCameraBrowserTests.root.appendingPathComponent("scripts/camera/drawn_hand.py").path }

    @Test("a fake camera's drawn hand plays the Hands instrument through the page (the hand found, side and landmarks as --image, notes, the synth rises from silence, the latency readout); a blank video stays silent; a denied permission is explained",
          .enabled(if: TestPeers.enabled(HecateCameraBrowserTests.available)))
    func pageCameraPlaysHands() async throws {
        try StudioBrowserTests.requirePeers()
        try TestPeers.require(FileManager.default.isExecutableFile(atPath: HecateCameraBrowserTests.python), "the camera venv (scripts/camera-setup --test)")
        let prospero = try #require(HecateCameraBrowserTests.prospero)
        let rig = try StudioCameraRig(instruments: [try HandsStudioInstrument()])
        defer { rig.stop() }
        let studio = rig.studio, session = rig.session
        let levels = LevelLog(session: session)
        defer { levels.stop() }

        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        let script = StudioBrowserTests.browser.appendingPathComponent("hands_camera.py").path
        let result = try await TestPeers.run("python3", [script, "http://127.0.0.1:\(studio.port)/hands/", HecateCameraBrowserTests.python,
                                                         Self.drawnHand, prospero, StudioBrowserTests.screenshots.path], timeout: 600)
        #expect(result.status == 0, "hands_camera.py: \(result.output)")
        for line in result.output.split(separator: "\n") where line.hasPrefix("camera: ") && !line.hasPrefix("camera: mark") { print(line) }
        // The synth's output in each phase the script marked.
        var marks: [String: Double] = [:]
        for line in result.output.split(separator: "\n") where line.hasPrefix("camera: mark ") {
            let parts = line.split(separator: " ")
            if parts.count == 4, let t = Double(parts[3]) { marks[String(parts[2])] = t }
        }
        guard result.status == 0, let silent = marks["silent"], let tap = marks["tap"], let playing = marks["playing"],
              let blank = marks["blank"], let blankEnd = marks["blank-end"] else { return }
        let before = levels.loudest(from: silent, to: tap), during = levels.loudest(from: tap, to: playing)
        let withBlank = levels.loudest(from: blank, to: blankEnd)
        print("camera: the Hands synth's loudest block: \(before) dBFS before the camera, \(during) dBFS with the hand, \(withBlank) dBFS with the blank video")
        #expect(before < -90, "the synth sounds before the camera: \(before) dBFS")
        #expect(during > -40, "the hand did not make the synth sound: \(during) dBFS")
        #expect(withBlank < -90, "the synth sounds with a blank video: \(withBlank) dBFS")
        // The camera's hands went through the live input, counted as any sender's.
        #expect(rig.input.status.frames > 20, "\(rig.input.status)")
    }
}
