import Enobarbus
import Foundation
import ProsperoTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `prospero camera` as a user runs it, and its face geometry, through the peers it needs:
/// python3 for the geometry tests; the camera venv (scripts/camera-setup --test: mediapipe 0.10.21,
/// OpenCV, and scikit-image 0.24.0 for its astronaut photograph) for the bridge on images.
@Suite("prospero camera", .serialized, .ownThread, .takingTurns())
struct CameraBridgeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var binary: URL? {
        let here = Bundle.main.bundleURL
        for directory in [here, here.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("prospero")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static var venv: URL {
        if let path = ProcessInfo.processInfo.environment["PROSPERO_CAMERA_VENV"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".venv-camera")
    }

    /// The test photograph inside the scikit-image wheel, if the venv has it.
    static var astronaut: String? {
        let lib = venv.appendingPathComponent("lib")
        guard let pythons = try? FileManager.default.contentsOfDirectory(atPath: lib.path) else { return nil }
        for python in pythons {
            let path = lib.appendingPathComponent("\(python)/site-packages/skimage/data/astronaut.png").path
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return nil
    }

    static var bridgeReady: Bool {
        binary != nil && FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("bin/python").path) && astronaut != nil
    }

    struct Run { var status: Int32; var out: String; var err: String }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        var env = environment
        env["PROSPERO_CAMERA_VENV"] = env["PROSPERO_CAMERA_VENV"] ?? venv.path
        let r = try CLIProcess.run(URL(fileURLWithPath: executable), arguments, environment: env)
        return Run(status: r.status, out: r.output, err: r.error)
    }

    static func camera(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try run(try #require(binary).path, ["camera"] + arguments, environment: environment)
    }

    /// The JSON objects of a `--json` run, one per line.
    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    // MARK: geometry (python3 only)

    @Test func faceGeometryMappingOnBuiltLandmarks() throws {
        try TestPeers.require(TestPeers.executable("python3") != nil, "python3")
        let script = Self.root.appendingPathComponent("scripts/camera/test_face_geometry.py").path
        let r = try Self.run(try #require(TestPeers.executable("python3")), [script])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("Ran 11 tests") && r.err.contains("OK"), "\(r.err)")
    }

    // MARK: the CLI

    @Test(.enabled(if: binary != nil || TestPeers.required))
    func badOptionsAndAMissingEnvironmentAreClearErrors() throws {
        let both = try Self.camera(["--face", "--hands"])
        #expect(both.status != 0 && both.err.contains("choose one of --face or --hands"))
        let port = try Self.camera(["--face", "--port", "70000"])
        #expect(port.status != 0 && port.err.contains("--port"))
        let file = try Self.camera(["--face", "--image", "/nonexistent.png"])
        #expect(file.status != 0 && file.err.contains("/nonexistent.png"))
        let noVenv = try Self.camera(["--face", "--once"], environment: ["PROSPERO_CAMERA_VENV": "/nonexistent-venv"])
        #expect(noVenv.status == 2 && noVenv.err.contains("scripts/camera-setup") && noVenv.err.contains("libgl1"))
        let noCamera = try Self.camera(["--face", "--once", "--device", "/dev/video-prospero-none"], environment: [:])
        if FileManager.default.isExecutableFile(atPath: Self.venv.appendingPathComponent("bin/python").path) {
            #expect(noCamera.status == 2 && noCamera.err.contains("cannot open camera"))
        }
    }

    // MARK: the bridge on still images

    @Test func facePhotographGivesHecatesBlendshapesAndFiniteHead() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let r = try Self.camera(["--face", "--image", try #require(Self.astronaut), "--once", "--json", "--no-send"])
        #expect(r.status == 0, "\(r.err)")
        let objects = try Self.lines(r.out)
        #expect(objects.count == 2 && objects.first?["format"] as? String == "prospero-recording")
        let face = try #require(objects.last?["face"] as? [String: Any])
        let blend = try #require(face["blend"] as? [String: Double])
        for name in ["jawOpen", "browInnerUp", "cheekPuff", "mouthPucker", "mouthSmileLeft", "mouthSmileRight"] {
            let v = try #require(blend[name], "\(name) missing")
            #expect((0...1).contains(v), "\(name) = \(v)")
        }
        #expect(blend.values.allSatisfy { (0...1).contains($0) })
        // The portrait smiles broadly with teeth showing, looking at the camera.
        #expect(try #require(blend["mouthSmileLeft"]) > 0.5 && (try #require(blend["mouthSmileRight"])) > 0.5)
        #expect(try #require(blend["jawOpen"]) > 0.1)
        #expect(try #require(blend["mouthPucker"]) < 0.1)
        let head = try #require(face["head"] as? [Double])
        #expect(head.count == 3 && head.allSatisfy { $0.isFinite && abs($0) < 20 })
        // The lines are Prospero's recording format: the reader accepts them.
        let recording = try RecordingReader.parse(Array(r.out.utf8))
        #expect(recording.frames.count == 1)
        if case .face(let f)? = recording.frames.first { #expect(f.blendshapes[.mouthSmileLeft] > 0.5) } else { Issue.record("not a face") }
    }

    @Test func mirroringSwapsSidesAndYawRoll() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let image = try #require(Self.astronaut)
        let plain = try Self.lines(Self.camera(["--face", "--image", image, "--once", "--json", "--no-send"]).out)
        let mirrored = try Self.lines(Self.camera(["--face", "--image", image, "--once", "--json", "--no-send", "--mirror"]).out)
        let a = try #require(plain.last?["face"] as? [String: Any]), b = try #require(mirrored.last?["face"] as? [String: Any])
        let ab = try #require(a["blend"] as? [String: Double]), bb = try #require(b["blend"] as? [String: Double])
        #expect(ab["mouthSmileLeft"] == bb["mouthSmileRight"] && ab["eyeWideRight"] == bb["eyeWideLeft"])
        let ah = try #require(a["head"] as? [Double]), bh = try #require(b["head"] as? [Double])
        #expect(abs(ah[0] + bh[0]) < 1e-3 && abs(ah[1] - bh[1]) < 1e-3 && abs(ah[2] + bh[2]) < 1e-3)
    }

    @Test func blankImageGivesNoFaceAndNoHand() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let blank = dir.appendingPathComponent("blank.png").path
        let python = Self.venv.appendingPathComponent("bin/python").path
        let made = try Self.run(python, ["-c", "import numpy, cv2, sys; cv2.imwrite(sys.argv[1], numpy.full((240, 320, 3), 128, numpy.uint8))", blank])
        #expect(made.status == 0, "\(made.err)")
        let face = try Self.camera(["--face", "--image", blank, "--once", "--json", "--no-send"])
        #expect(face.status == 0 && face.err.contains("no face found"))
        let faceLines = try Self.lines(face.out)
        #expect(faceLines.count == 2 && faceLines.last?["ended"] as? String == "face" && faceLines.last?["t"] is Double)
        let hands = try Self.camera(["--hands", "--image", blank, "--once", "--json", "--no-send"])
        #expect(hands.status == 0 && hands.err.contains("no hand found"))
        #expect(try Self.lines(hands.out).last?["ended"] as? String == "hand0")
    }

    @Test func shiftedAndScaledPhotoSequenceMovesLessThanFivePerCentPerFrame() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("moving.avi").path
        // 30 frames at 30 fps: the photo shifted right by 2 px per frame and scaled up 0.5 % per frame.
        let script = """
            import cv2, numpy, sys
            src = cv2.imread(sys.argv[1])
            h, w = src.shape[:2]
            out = cv2.VideoWriter(sys.argv[2], cv2.VideoWriter_fourcc(*"MJPG"), 30, (w, h))
            for k in range(30):
                s = 1 + 0.005 * k
                m = numpy.float32([[s, 0, 2 * k + (1 - s) * w / 2], [0, s, (1 - s) * h / 2]])
                out.write(cv2.warpAffine(src, m, (w, h), borderMode=cv2.BORDER_REPLICATE))
            out.release()
            """
        let python = Self.venv.appendingPathComponent("bin/python").path
        let made = try Self.run(python, ["-c", script, try #require(Self.astronaut), video])
        #expect(made.status == 0, "\(made.err)")
        let r = try Self.camera(["--face", "--video", video, "--json", "--no-send"])
        #expect(r.status == 0, "\(r.err)")
        let faces = try Self.lines(r.out).compactMap { $0["face"] as? [String: Any] }.compactMap { $0["blend"] as? [String: Double] }
        #expect(faces.count >= 25, "only \(faces.count) faces in 30 frames")
        var largest = 0.0
        for (a, b) in zip(faces, faces.dropFirst()) {
            for (name, v) in a { largest = max(largest, abs(v - (b[name] ?? v))) }
        }
        print("camera: largest blendshape change between frames of the moving photo: \(largest)")
        #expect(largest < 0.05)
    }

    @Test func photoThroughARecordingPlaysHecate() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try #require(Self.astronaut)
        let python = Self.venv.appendingPathComponent("bin/python").path
        let blank = dir.appendingPathComponent("blank.png").path
        _ = try Self.run(python, ["-c", "import numpy, cv2, sys; cv2.imwrite(sys.argv[1], numpy.full((240, 320, 3), 128, numpy.uint8))", blank])
        /// Image → `camera --json` → recording → `hecate --input` offline: the WAV's bytes and its peak (dBFS).
        func render(_ name: String, _ arguments: [String]) throws -> (wav: Data, peak: Double) {
            let take = try Self.camera(["--face", "--once", "--json", "--no-send"] + arguments)
            #expect(take.status == 0, "\(take.err)")
            let recording = dir.appendingPathComponent("\(name).jsonl"), wav = dir.appendingPathComponent("\(name).wav")
            try take.out.write(to: recording, atomically: true, encoding: .utf8)
            let r = try Self.run(try #require(Self.binary).path, ["hecate", "--input", recording.path, "-o", wav.path])
            #expect(r.status == 0, "\(r.err)")
            // "wrote …: 4.94 s, peak -13.4 dBFS, …"
            let wrote = r.out.split(separator: "\n").first { $0.hasPrefix("wrote ") }.map(String.init) ?? ""
            let peak = wrote.components(separatedBy: "peak ").dropFirst().first?.split(separator: " ").first.flatMap { Double($0) }
            return (try Data(contentsOf: wav), try #require(peak, "no peak in \(r.out)"))
        }
        let smiling = try render("smiling", ["--image", photo])
        let neutral = try render("neutral", ["--image", photo, "--calibrate"])  // the photo as its own neutral
        let nobody = try render("nobody", ["--image", blank])
        #expect(smiling.peak > -40 && neutral.peak > -40, "a face sounds: \(smiling.peak), \(neutral.peak) dBFS")
        #expect(nobody.peak < -150, "no face stays silent: \(nobody.peak) dBFS")
        #expect(smiling.wav != neutral.wav, "the expression changes the sound")
    }

    /// The whole live path offline: the photo → `camera` sending OSC → `osc record` on a UDP port → the
    /// recording → `hecate --input`. The face that arrives is the one `--json` prints, and it sounds;
    /// without the camera's face (no frames) Hecate stays silent.
    @Test func photoOverOSCIntoARecordingPlaysHecate() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try #require(Self.astronaut)
        let take = dir.appendingPathComponent("osc.jsonl").path
        // The recorder listens on an ephemeral port, named in its banner, until it is stopped.
        let (recorder, banner, out) = try CLIProcess.startWithBanner(try #require(Self.binary), ["osc", "record", take, "--port", "0"])
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        let port = try #require(CLIProcess.loopbackPort(in: banner), "\(banner)")
        let sent = try Self.camera(["--face", "--image", photo, "--once", "--port", "\(port)"])
        #expect(sent.status == 0, "\(sent.err)")
        // The recorder writes its lines a quarter of a second at a time: stopped once the face is in the file.
        let recordedFaces = { () -> [FaceFrame] in
            let recording = try? RecordingReader.parse(Array((try? Data(contentsOf: URL(fileURLWithPath: take))) ?? Data()))
            return recording?.frames.compactMap { if case .face(let f) = $0 { f } else { nil } } ?? []
        }
        try Eventually.holds("a face in the recording") { !recordedFaces().isEmpty }
        kill(recorder.processIdentifier, SIGTERM)
        _ = out.fileHandleForReading.readDataToEndOfFile()
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)

        let recording = try RecordingReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: take))))
        let faces = recording.frames.compactMap { if case .face(let f) = $0 { f } else { nil } }
        let face = try #require(faces.first, "no face arrived over OSC: \(recording.frames)")
        let printed = try Self.lines(Self.camera(["--face", "--image", photo, "--once", "--json", "--no-send"]).out)
        let blend = try #require((printed.last?["face"] as? [String: Any])?["blend"] as? [String: Double])
        for (name, value) in blend {
            let shape = try #require(ARKitBlendshape(normalisedName: name), "\(name)")
            #expect(abs(Double(face.blendshapes[shape]) - value) < 1e-4, "\(name): \(face.blendshapes[shape]) over OSC, \(value) printed")
        }
        let wav = dir.appendingPathComponent("osc.wav").path
        let r = try Self.run(try #require(Self.binary).path, ["hecate", "--input", take, "-o", wav])
        #expect(r.status == 0, "\(r.err)")
        let wrote = r.out.split(separator: "\n").first { $0.hasPrefix("wrote ") }.map(String.init) ?? ""
        let peak = try #require(wrote.components(separatedBy: "peak ").dropFirst().first?.split(separator: " ").first.flatMap { Double($0) }, "\(r.out)")
        #expect(peak > -40, "the photographed face sounds: \(peak) dBFS")
    }

    @Test func signalsReachTheChildAndItIsGoneAfterwards() throws {
        try TestPeers.require(Self.bridgeReady, "the camera venv (scripts/camera-setup --test)")
        let process = Process()
        process.executableURL = try #require(Self.binary)
        process.arguments = ["camera", "--face", "--image", try #require(Self.astronaut), "--no-send"]
        var env = ProcessInfo.processInfo.environment
        env["PROSPERO_CAMERA_VENV"] = Self.venv.path
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        var child: Int32?
        try Eventually.holds("the Python child of prospero camera") {
            let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            child = list.split(separator: " ").first.flatMap { Int32($0) }
            return child != nil
        }
        let childPID = try #require(child)
        usleep(1_500_000)  // let it start tracking
        kill(pid, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(kill(childPID, 0) != 0, "the Python child \(childPID) outlived prospero")
    }
}
