import CameraBridge
import CameraTools
import Foundation
import ProsperoTestSupport
import Studio
import Synchronization
import Testing

/// The studio's long-lived bridge process (`CameraBridgeProcess`): the real script on frames from a pipe, and
/// its lifecycle with a child that dies (restarts after 0.5 s, then 1 s, reported with the child's last words; the
/// waits on a clock the test moves) or an environment that is missing (reported as unavailable, naming
/// scripts/camera-setup). Waits for the real script are bounds for a busy machine (MediaPipe loads its models on the
/// first frame), not figures.
@Suite("camera bridge process", .serialized, .ownThread, .takingTurns())
struct CameraBridgeProcessTests {
    final class Events: @unchecked Sendable {
        let list = Mutex<[StudioCameraBridgeEvent]>([])
        var record: @Sendable (StudioCameraBridgeEvent) -> Void { { e in self.list.withLock { $0.append(e) } } }
        var all: [StudioCameraBridgeEvent] { list.withLock { $0 } }
        var lines: [StudioCameraBridgeLine] { all.compactMap { if case .line(let l) = $0 { try? StudioCameraBridgeLine.parse(l) } else { nil } } }
        /// Waits up to `timeout` seconds (a bound for a busy machine) for `condition`.
        func wait(_ timeout: Double, _ condition: ([StudioCameraBridgeEvent]) -> Bool) -> Bool {
            let end = Date().addingTimeInterval(timeout)
            while Date() < end {
                if condition(all) { return true }
                usleep(20_000)
            }
            return condition(all)
        }
    }

    /// Seconds the test sets: the bridge's waits before a start count on it.
    final class TestClock: @unchecked Sendable {
        private let seconds = Mutex(100.0)
        func set(_ t: Double) { seconds.withLock { $0 = t } }
        var now: Double { seconds.withLock { $0 } }
    }

    @Test("the waits before a start: 0.5, 1, 2, 4, then 8 s after deaths in a row; back to 0.5 s after a run of 30 s")
    func backoff() {
        var backoff = CameraRestartBackoff()
        // Children that die at once, again and again.
        let waits = (0..<7).map { _ in backoff.wait(startedAt: 10, diedAt: 10.2) }
        #expect(waits == [0.5, 1, 2, 4, 8, 8, 8])
        // A run just short of 30 s keeps the row; one of 30 s ends it.
        #expect(backoff.wait(startedAt: 100, diedAt: 129.9) == 8)
        #expect(backoff.wait(startedAt: 200, diedAt: 230) == 0.5)
        #expect(backoff.wait(startedAt: 231, diedAt: 231) == 1)
    }

    @Test func theScriptTracksJPEGFramesFromThePipe() throws {
        try TestPeers.require(CameraBridgeTests.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let python = CameraBridgeTests.venv.appendingPathComponent("bin/python").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The photograph's 320×240 part around the face, as a page would send it.
        let jpegPath = dir.appendingPathComponent("face.jpg").path
        let made = try CameraBridgeTests.run(python, ["-c", "import cv2, sys; cv2.imwrite(sys.argv[2], cv2.imread(sys.argv[1])[0:240, 40:360])",
                                                      try #require(CameraBridgeTests.astronaut), jpegPath])
        #expect(made.status == 0, "\(made.err)")
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: jpegPath)))
        let tools = CameraBridgeLocator(python: python, script: CameraBridgeTests.root.appendingPathComponent("scripts/camera/prospero_camera.py").path)
        let bridge = CameraBridgeProcess(locate: { tools })
        defer { bridge.stop() }
        let events = Events()
        bridge.start(events: events.record)
        for id: UInt32 in 1...6 {
            #expect(bridge.send(id: id, stream: 3, model: .face, jpeg: jpeg[...]))
            #expect(events.wait(120) { _ in events.lines.contains { if case .frame(let r) = $0 { r.id == id } else { false } } }, "no answer to frame \(id)")
        }
        #expect(bridge.send(id: 7, stream: 3, model: .face, jpeg: [0x01, 0x02][...]))
        #expect(bridge.send(id: 8, stream: 3, model: .face, jpeg: [][...]))
        #expect(events.wait(120) { _ in events.lines.count >= 9 })
        let lines = events.lines
        guard case .ready(let contours)? = lines.first else { Issue.record("no ready line first: \(lines)"); return }
        #expect(contours.count > 100)
        let results = lines.compactMap { if case .frame(let r) = $0 { r } else { nil } }
        #expect(results.map(\.id) == Array(1...8), "one line per frame, in order")
        // Faces are reported once the tracker settled (from the fourth frame), with all 468 landmarks.
        let faces = results.compactMap(\.face)
        #expect(faces.count == 3 && results[0].points?.count == 936 && results.allSatisfy { $0.stream == 3 })
        let printed = try CameraBridgeTests.lines(CameraBridgeTests.camera(["--face", "--image", jpegPath, "--once", "--json", "--no-send"]).out)
        let reference = try #require((printed.last?["face"] as? [String: Any])?["blend"] as? [String: Double])
        #expect(abs(try #require(faces.last?.blend["jawOpen"]) - (try #require(reference["jawOpen"]))) < 0.05)
        #expect(results[6].error?.contains("JPEG") == true)
        #expect(results[7].ended, "the stream's end ends its face")
    }

    @Test("hands over the pipe: a drawn hand's frames (model byte 1) give its 21 landmarks and side as --hands --image does; leaving the model ends the hand")
    func theScriptTracksHandsFromThePipe() throws {
        try TestPeers.require(CameraBridgeTests.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let python = CameraBridgeTests.venv.appendingPathComponent("bin/python").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("hand.png").path, jpegPath = dir.appendingPathComponent("hand.jpg").path
        let drawn = try CameraBridgeTests.run(python, [CameraBridgeTests.root.appendingPathComponent("scripts/camera/drawn_hand.py").path, png])
        #expect(drawn.status == 0, "\(drawn.err)")
        let made = try CameraBridgeTests.run(python, ["-c", "import cv2, sys; cv2.imwrite(sys.argv[2], cv2.imread(sys.argv[1]), [cv2.IMWRITE_JPEG_QUALITY, 75])", png, jpegPath])
        #expect(made.status == 0, "\(made.err)")
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: jpegPath)))
        let tools = CameraBridgeLocator(python: python, script: CameraBridgeTests.root.appendingPathComponent("scripts/camera/prospero_camera.py").path)
        let bridge = CameraBridgeProcess(locate: { tools })
        defer { bridge.stop() }
        let events = Events()
        bridge.start(events: events.record)
        for id: UInt32 in 1...4 {
            #expect(bridge.send(id: id, stream: 5, model: id == 4 ? .face : .hands, jpeg: jpeg[...]))
            #expect(events.wait(120) { _ in events.lines.contains { if case .frame(let r) = $0 { r.id == id } else { false } } }, "no answer to frame \(id)")
        }
        let results = events.lines.compactMap { if case .frame(let r) = $0 { r } else { nil } }
        #expect(results.map(\.id) == [1, 2, 3, 4])
        let hands = results.prefix(3).map(\.hands)
        #expect(hands.allSatisfy { $0.count == 1 && $0[0].slot == 0 }, "\(hands)")
        #expect(results[3].endedHands == [0] && results[3].hands.isEmpty, "the stream left the hands model: its hand ends")
        let printed = try CameraBridgeTests.lines(CameraBridgeTests.camera(["--hands", "--image", jpegPath, "--once", "--json", "--no-send"]).out)
        let reference = try #require(printed.last?["hand"] as? [String: Any])
        let lm = try #require(reference["lm"] as? [Double])
        let tracked = try #require(hands.last?.first)
        #expect(tracked.side == reference["side"] as? String)
        // The pipe tracks video (each frame from the last one's landmarks, smoothed); --image detects afresh.
        let worst = (0..<63).filter { $0 % 3 != 2 }.map { abs(Double(tracked.landmarks[$0]) - lm[$0]) }.max() ?? 1
        #expect(worst < 0.03, "landmarks differ by up to \(worst)")
    }

    /// A child that says why and dies at once (`/bin/sh` as the "Python", a script of its own).
    static func dyingTools(_ dir: URL, saying words: String) throws -> CameraBridgeLocator {
        let script = dir.appendingPathComponent("die.sh")
        try "echo 'noise'; echo '\(words)' >&2; exit 3\n".write(to: script, atomically: true, encoding: .utf8)
        return CameraBridgeLocator(python: "/bin/sh", script: script.path)
    }

    @Test func aDyingBridgeIsReportedAndRestartedWithBackoff() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tools = try Self.dyingTools(dir, saying: "prospero camera: something broke")
        let clock = TestClock()
        let bridge = CameraBridgeProcess(locate: { tools }, clock: { clock.now })
        defer { bridge.stop() }
        let events = Events()
        bridge.start(events: events.record)
        let exited = { (wait: Double) in StudioCameraBridgeEvent.exited(reason: "exit status 3: prospero camera: something broke", restartIn: wait) }
        let starts = { events.all.filter { $0 == .starting }.count }
        // Started at 100 s, dead at once: the next start waits 0.5 s.
        _ = bridge.send(id: 1, stream: 1, model: .face, jpeg: [0xFF, 0xD8][...])
        #expect(events.wait(60) { $0.contains(exited(0.5)) }, "\(events.all)")
        #expect(events.all.first == .starting)
        // Within the wait no frame starts it; at its end the next frame does, and the wait doubles.
        clock.set(100.49)
        #expect(!bridge.send(id: 2, stream: 1, model: .face, jpeg: [0xFF, 0xD8][...]))
        #expect(starts() == 1)
        clock.set(100.5)
        _ = bridge.send(id: 3, stream: 1, model: .face, jpeg: [0xFF, 0xD8][...])
        #expect(events.wait(60) { $0.contains(exited(1)) }, "\(events.all)")
        #expect(starts() == 2)
        clock.set(101.49)
        #expect(!bridge.send(id: 4, stream: 1, model: .face, jpeg: [0xFF, 0xD8][...]))
        #expect(starts() == 2)
    }

    @Test func noEnvironmentIsUnavailableAndNamesTheSetup() throws {
        let bridge = CameraBridgeProcess(locate: { () throws(CameraBridgeUnavailable) in
            try CameraBridgeLocator.locate(environment: ["PROSPERO_CAMERA_VENV": "/nonexistent-venv"])
        })
        let events = Events()
        bridge.start(events: events.record)
        #expect(!bridge.send(id: 1, stream: 1, model: .face, jpeg: [0xFF, 0xD8][...]))
        guard case .unavailable(let message)? = events.all.first else { Issue.record("\(events.all)"); return }
        #expect(message.contains("scripts/camera-setup") && message.contains("libgl1"))
        // A missing package inside the venv is the same: the bridge's own message names the setup.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tools = try Self.dyingTools(dir, saying: "prospero camera: mediapipe 0.10.21 is not installed in this Python (run scripts/camera-setup)")
        let broken = CameraBridgeProcess(locate: { tools })
        defer { broken.stop() }
        let more = Events()
        broken.start(events: more.record)
        _ = broken.send(id: 1, stream: 1, model: .face, jpeg: [0xFF, 0xD8][...])
        #expect(more.wait(60) { $0.contains { if case .unavailable(let m) = $0 { m.contains("scripts/camera-setup") } else { false } } }, "\(more.all)")
    }
}
