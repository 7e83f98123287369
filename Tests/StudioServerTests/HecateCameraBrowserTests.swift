import CameraBridge
import CameraTools
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoTestSupport
import Studio
import StudioServer
import Testing

/// Hecate's page camera end to end (Browser/hecate_camera.py): Chromium's fake camera plays a video made from
/// the camera tests' photograph (and a blank one) into the page, which sends its frames over the WebSocket to
/// the studio's camera desk and the real camera bridge process (the venv scripts/camera-setup --test makes);
/// the faces enter the live input (a `LiveHost` over the UDP input merged with the cameras, as `prospero
/// studio` runs it) and play Hecate, rendered by a thread standing in for the audio driver. Each wait there is a
/// bound for an outcome (the face found, the sound, the face lost on Stop), never a figure; the latency and the rate
/// the page sends at are the bench's to measure, and the page's pacing is checked on a fake clock
/// (Browser/camera_pacing.py). Screenshot: selfie.png.
@Suite("Page and studio cameras: Hecate's and the Hands page's in Chromium, --camera", .serialized, .takingTurns())
struct HecateCameraBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var venv: URL {
        if let path = ProcessInfo.processInfo.environment["PROSPERO_CAMERA_VENV"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".venv-camera")
    }

    static var python: String { venv.appendingPathComponent("bin/python").path }

    /// The test photograph inside the scikit-image wheel of the venv.
    static var photograph: String? {
        let lib = venv.appendingPathComponent("lib")
        for python in (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [] {
            let path = lib.appendingPathComponent("\(python)/site-packages/skimage/data/astronaut.png").path
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return nil
    }

    static var prospero: String? {
        let here = Bundle.main.bundleURL
        return [here, here.deletingLastPathComponent()].map { $0.appendingPathComponent("prospero").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var available: Bool {
        StudioBrowserTests.available && FileManager.default.isExecutableFile(atPath: python) && photograph != nil && prospero != nil
    }

    @Test("a fake camera's photograph plays Hecate through the page (the face found, values as --image, sound, the latency readout); a blank video stays silent; a denied permission is explained",
          .enabled(if: TestPeers.enabled(available)))
    func pageCamera() async throws {
        try StudioBrowserTests.requirePeers()
        try TestPeers.require(FileManager.default.isExecutableFile(atPath: Self.python) && Self.photograph != nil,
                              "the camera venv (scripts/camera-setup --test)")
        let photograph = try #require(Self.photograph), prospero = try #require(Self.prospero)
        let rig = try StudioCameraRig(instruments: [HecateStudioInstrument()])
        defer { rig.stop() }
        let studio = rig.studio, session = rig.session
        let render = HecateBrowserTests.RenderThread(session: session)
        defer { render.stop() }

        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        let script = StudioBrowserTests.browser.appendingPathComponent("hecate_camera.py").path
        let result = try await TestPeers.run("python3", [script, "http://127.0.0.1:\(studio.port)/hecate/", Self.python, photograph, prospero,
                                                         StudioBrowserTests.screenshots.path], timeout: 600)
        #expect(result.status == 0, "hecate_camera.py: \(result.output)")
        // What it compared (the values through the page and from --image), for the log.
        for line in result.output.split(separator: "\n") where line.hasPrefix("camera: ") { print(line) }
        // The camera's faces went through the live input, counted as any sender's.
        #expect(rig.input.status.frames > 30, "\(rig.input.status)")
    }

    @Test("a page camera on a fake clock: a frame each 1/30 s tick, none while one is encoded, skipped and counted when the socket is backed up or offline; pings on their schedule; frames stamped by the shortest pong; nothing after Stop",
          .enabled(if: TestPeers.enabled(StudioBrowserTests.available)))
    func pageCameraPacing() async throws {
        try StudioBrowserTests.requirePeers()
        let studio = try StudioTestServer(instruments: [HecateStudioInstrument()])
        defer { studio.stop() }
        try await StudioBrowserTests.run("camera_pacing.py", ["http://127.0.0.1:\(studio.port)/hecate/?guide=0"])
    }

    @Test("without a camera environment the page's frames are answered with a message naming scripts/camera-setup")
    func noCameraEnvironment() throws {
        let camera = StudioCameraDesk(bridge: CameraBridgeProcess(locate: { () throws(CameraBridgeUnavailable) in
            try CameraBridgeLocator.locate(environment: ["PROSPERO_CAMERA_VENV": "/nonexistent-venv"])
        }))
        defer { camera.stop() }
        let studio = try StudioTestServer(instruments: [HecateStudioInstrument()], camera: camera)
        defer { studio.stop() }
        let (client, _) = try studio.socket()
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]
        client.sendFrame(StudioCameraFrame(sequence: 1, sentAt: nil, width: 320, height: 240, jpeg: jpeg[...]).encoded(), opcode: 2)
        let answer = client.readJSON(until: { $0["type"] as? String == "camera" })
        #expect(answer?["state"] as? String == "unavailable")
        #expect((answer?["message"] as? String)?.contains("scripts/camera-setup") == true, "\(String(describing: answer))")
        // Over the size cap: refused with a clear error, the socket stays open.
        client.sendFrame(StudioCameraFrame(sequence: 2, sentAt: nil, width: 320, height: 240,
                                           jpeg: ([0xFF, 0xD8] + [UInt8](repeating: 0, count: StudioCameraFrame.maximumJPEGBytes))[...]).encoded(), opcode: 2)
        let refused = client.readJSON(until: { $0["type"] as? String == "error" })
        #expect(refused?["code"] as? String == "too_large" && refused?["ref"] as? String == "camera", "\(String(describing: refused))")
        client.sendText(#"{"type":"ping","t":3}"#)
        #expect(client.readJSON(until: { $0["type"] as? String == "pong" })?["t"] as? Int == 3)
    }
}
