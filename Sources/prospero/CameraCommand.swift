import ArgumentParser
import CameraTools
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `prospero camera`: a webcam (or a video or image) tracked by MediaPipe in a Python child process,
/// sent to the live commands as Prospero's native OSC. The child is scripts/camera/prospero_camera.py
/// running in the environment scripts/camera-setup makes; signals reach it and it never outlives this
/// process (it also asks Linux to end it when its parent dies).
struct CameraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camera",
        abstract: "Track a face or hands with a webcam and send them as OSC to the live commands.",
        discussion: """
            Faces go out as /prospero/face/blend (ARKit blendshapes 0…1 computed from MediaPipe's 468 \
            landmarks), /prospero/face/head (yaw, pitch, roll in degrees) and /prospero/face/end; hands as \
            /prospero/hand (slot, left/right, confidence, 21 landmarks) and /prospero/hand/end. \
            One-time setup: scripts/camera-setup (a Python venv with mediapipe 0.10.21 and OpenCV, whose \
            wheels carry the models; nothing is downloaded at run time). Debian needs libgl1 for OpenCV.
            Example: prospero camera --face --mirror --calibrate   (then: prospero hecate --port 9000)
            """
    )

    @Flag(help: "Track the face (blendshapes and head rotation).")
    var face = false
    @Flag(help: "Track up to four hands (21 landmarks and handedness each).")
    var hands = false
    @Option(help: "Camera device.")
    var device: String?
    @Option(help: "Read frames from a video file instead of a camera (played at its own frame rate).")
    var video: String?
    @Option(help: "Track one still image (sent 30 times a second until Ctrl-C, or once with --once).")
    var image: String?
    @Option(help: "Host the OSC goes to.")
    var host = "127.0.0.1"
    @Option(help: "UDP port the OSC goes to.")
    var port = 9000
    @Flag(help: "Stop after the first frame. With --image and no face or hand found: an 'ended' line, a message on stderr, exit 0.")
    var once = false
    @Flag(help: "Print each frame as a line of Prospero's recording format on stdout (header line first).")
    var json = false
    @Flag(help: "The camera image is mirrored (selfie view): swaps left and right and the signs of yaw and roll.")
    var mirror = false
    @Flag(help: "Take the neutral face from the first seconds (or from the image) instead of the default neutral.")
    var calibrate = false
    @Option(help: "Seconds of neutral face --calibrate averages.")
    var calibrationSeconds = 3.0
    @Flag(help: "Do not send OSC (with --json: only print).")
    var noSend = false

    func validate() throws {
        guard face != hands else { throw ValidationError("choose one of --face or --hands") }
        guard [device, video, image].compactMap({ $0 }).count <= 1 else {
            throw ValidationError("choose at most one of --device, --video, --image")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1…65535") }
        guard calibrationSeconds > 0, calibrationSeconds.isFinite else { throw ValidationError("--calibration-seconds must be positive") }
        for (name, path) in [("--video", video), ("--image", image)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(name) \(path): no such readable file")
            }
        }
    }

    func run() throws {
        let tools: CameraBridgeLocator
        do { tools = try CameraBridgeLocator.locate() } catch {
            FileHandle.standardError.write(Data("prospero camera: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        var arguments = [tools.script, face ? "--face" : "--hands", "--host", host, "--port", String(port)]
        if let device { arguments += ["--device", device] }
        if let video { arguments += ["--video", video] }
        if let image { arguments += ["--image", image] }
        if once { arguments.append("--once") }
        if json { arguments.append("--json") }
        if mirror { arguments.append("--mirror") }
        if calibrate { arguments += ["--calibrate", String(calibrationSeconds)] }
        if noSend { arguments.append("--no-send") }
        let status = try CameraBridgeChild.run(python: tools.python, arguments: arguments)
        if status != 0 { throw ExitCode(status) }
    }
}
