import CameraBridge
import CameraTools
import Enobarbus
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoTestSupport
import Studio
import StudioServer
import Synchronization
import Testing

/// `prospero studio --camera DEVICE`: this machine's camera (here a video file made from the camera tests'
/// photograph, since the test machine has no webcam) read by the bridge script's `--frames-stdout`
/// (`CameraDeviceProcess`), tracked by the studio's one bridge process, its faces entering the live input, its
/// preview reaching only the pages subscribed to `camera`; a missing device, no camera environment and the
/// child's death (reported, restarted with backoff).
/// (Part of the cameras' serialized suite: one MediaPipe bridge at a time on the shared machine.)
extension HecateCameraBrowserTests {
    final class CameraLog: @unchecked Sendable {
        let list = Mutex<[String]>([])
        var all: [String] { list.withLock { $0 } }
        func add(_ line: String) { list.withLock { $0.append(line) } }
    }

    @Test("a video file as the camera: its face is tracked and enters the live input; the preview (kind 0x22, JPEG) reaches a page subscribed to camera and no other",
          .enabled(if: TestPeers.enabled(HecateCameraBrowserTests.available)))
    func studioCameraFromAVideoFile() async throws {
        try TestPeers.require(FileManager.default.isExecutableFile(atPath: HecateCameraBrowserTests.python), "the camera venv (scripts/camera-setup --test)")
        let photograph = try #require(HecateCameraBrowserTests.photograph)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-studio-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 30 frames of the photograph's 640×480 part around the face (the studio downscales it to 320×240).
        let video = dir.appendingPathComponent("face.avi").path
        let made = try await TestPeers.run(HecateCameraBrowserTests.python, ["-c", """
            import sys, cv2
            image = cv2.imread(sys.argv[1])[0:480, 0:512]
            image = cv2.resize(image, (640, 480))
            out = cv2.VideoWriter(sys.argv[2], cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
            for _ in range(30): out.write(image)
            out.release()
            """, photograph, video], timeout: 60)
        #expect(made.status == 0, "\(made.output)")
        let source = try CameraDeviceProcess.resolve(video)
        #expect(source == CameraDeviceProcess.Source(arguments: ["--video", video], name: video))

        let rig = try StudioCameraRig(instruments: [HecateStudioInstrument()])
        defer { rig.stop() }
        let (tools, camera, studio) = (rig.tools, rig.camera, rig.studio)
        let (watching, _) = try studio.socket(subscribe: #"["state","camera"]"#)
        let (other, _) = try studio.socket(subscribe: #"["state","frames"]"#)

        let log = CameraLog()
        let device = CameraDeviceProcess(source: source, locate: { tools })
        defer { device.stop() }
        device.start(frames: { jpeg, width, height in camera.submitStudioFrame(jpeg: jpeg, width: width, height: height, now: MonotonicClock.now()) },
                     log: { log.add($0) })

        // The watching page: preview frames and what the bridge tracked, until a face is reported (their rate, at most
        // 15 a second, is the camera desk's rule on the frames' own times: StudioCameraPreviewRateTests).
        var previews: [(width: Int, height: Int, jpeg: Bool)] = []
        var face: [String: Any]?
        let deadline = MonotonicClock.now() + 60
        while face == nil || previews.count < 20, MonotonicClock.now() < deadline, let frame = watching.readFrame() {
            if frame.opcode == 2, frame.payload.first == 0x22, frame.payload.count > 11 {
                let p = frame.payload
                previews.append((Int(p[5]) | Int(p[6]) << 8, Int(p[7]) | Int(p[8]) << 8, p[9] == 0xFF && p[10] == 0xD8))
            } else if frame.opcode == 1, let json = try? JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any],
                      json["type"] as? String == "camera", json["source"] as? String == "studio", json["face"] as? Bool == true {
                face = json
            }
        }
        let tracked = try #require(face, "no face from the studio's camera; log: \(log.all)")
        #expect(tracked["model"] as? String == "face")
        let jaw = try #require((tracked["blend"] as? [String: Any])?["jawOpen"] as? Double)
        #expect(jaw > 0.1 && jaw < 0.6, "jawOpen \(jaw)")
        #expect(previews.count >= 20 && previews.allSatisfy { $0.width == 320 && $0.height == 240 && $0.jpeg }, "\(previews.count) previews")
        // Its faces went through the live input as any sender's (the input's status counts a frame a moment after the
        // page saw it).
        try await Eventually.holds("a frame counted by the live input: \(rig.input.status)") { rig.input.status.frames > 0 }
        // A page that does not watch gets no preview.
        other.sendText(#"{"type":"ping","t":1}"#)
        var otherPreviews = 0
        while let frame = other.readFrame() {
            if frame.opcode == 2, frame.payload.first == 0x22 { otherPreviews += 1 }
            if frame.opcode == 1, String(decoding: frame.payload, as: UTF8.self).contains("\"pong\"") { break }
        }
        #expect(otherPreviews == 0)
        #expect(log.all.isEmpty, "\(log.all)")
    }

    @Test("a missing device or environment is a clear error naming what to do; a dying camera child is reported and restarted with backoff")
    func studioCameraMissingAndDying() throws {
        #expect(throws: CameraBridgeUnavailable(message: "--camera: no camera or video file at /nonexistent-camera.avi")) {
            try CameraDeviceProcess.resolve("/nonexistent-camera.avi")
        }
        do {
            _ = try CameraDeviceProcess.resolve("97")
            Issue.record("camera 97 resolved")
        } catch { #expect(error.message.contains("/dev/video97 does not exist")) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-studio-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("die.sh")
        try "echo 'prospero camera: cannot open camera /dev/video0 (is one connected?)' >&2; exit 2\n".write(to: script, atomically: true, encoding: .utf8)
        let dying = CameraDeviceProcess(source: .init(arguments: ["--device", "/dev/video0"], name: "/dev/video0"),
                                        locate: { CameraBridgeLocator(python: "/bin/sh", script: script.path) })
        defer { dying.stop() }
        let log = CameraLog()
        dying.start(frames: { _, _, _ in }, log: { log.add($0) })
        try Eventually.holds("two deaths reported: \(log.all)") { log.all.count >= 2 }
        let lines = log.all
        #expect(lines.first == "the studio camera (/dev/video0) stopped (exit status 2: prospero camera: cannot open camera /dev/video0 (is one connected?)); restarting in 0.5 s", "\(lines)")
        #expect(lines.dropFirst().first?.hasSuffix("restarting in 1.0 s") == true, "\(lines)")
        let unavailable = CameraDeviceProcess(source: .init(arguments: ["--device", "/dev/video0"], name: "/dev/video0"), locate: { () throws(CameraBridgeUnavailable) in
            try CameraBridgeLocator.locate(environment: ["PROSPERO_CAMERA_VENV": "/nonexistent-venv"])
        })
        let said = CameraLog()
        unavailable.start(frames: { _, _, _ in }, log: { said.add($0) })
        #expect(said.all.first?.contains("scripts/camera-setup") == true, "\(said.all)")
    }
}

extension HecateCameraBrowserTests {
    @Test("the studio's camera reaches the Hands page in Chromium: its preview drawn, its hands drawn over it and playing the router (a video of the drawn hand as the device)",
          .enabled(if: TestPeers.enabled(HecateCameraBrowserTests.available)))
    func studioCameraInThePage() async throws {
        try StudioBrowserTests.requirePeers()
        try TestPeers.require(FileManager.default.isExecutableFile(atPath: HecateCameraBrowserTests.python), "the camera venv (scripts/camera-setup --test)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-studio-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("hand.png").path, video = dir.appendingPathComponent("hand.avi").path
        let drawn = try await TestPeers.run(HecateCameraBrowserTests.python, [Self.drawnHand, png], timeout: 60)
        #expect(drawn.status == 0, "\(drawn.output)")
        let made = try await TestPeers.run(HecateCameraBrowserTests.python, ["-c", """
            import sys, cv2
            image = cv2.imread(sys.argv[1])
            out = cv2.VideoWriter(sys.argv[2], cv2.VideoWriter_fourcc(*"MJPG"), 30, (320, 240))
            for _ in range(30): out.write(image)
            out.release()
            """, png, video], timeout: 60)
        #expect(made.status == 0, "\(made.output)")

        let rig = try StudioCameraRig(instruments: [try HandsStudioInstrument()])
        defer { rig.stop() }
        let (tools, camera, studio) = (rig.tools, rig.camera, rig.studio)
        let device = CameraDeviceProcess(source: try CameraDeviceProcess.resolve(video), locate: { tools })
        defer { device.stop() }
        // As `prospero studio --camera` does: the welcome names the camera, its frames go to the desk.
        studio.session.info = ["camera": .string(device.source.name)]
        device.start(frames: { jpeg, width, height in camera.submitStudioFrame(jpeg: jpeg, width: width, height: height, now: MonotonicClock.now()) },
                     log: { print("studio: \($0)") })
        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        let result = try await TestPeers.run("python3", [StudioBrowserTests.browser.appendingPathComponent("studio_camera.py").path,
                                                         "http://127.0.0.1:\(studio.port)/hands/", device.source.name,
                                                         StudioBrowserTests.screenshots.path], timeout: 180)
        #expect(result.status == 0, "studio_camera.py: \(result.output)")
        for line in result.output.split(separator: "\n") where line.hasPrefix("camera: ") { print(line) }
    }
}
