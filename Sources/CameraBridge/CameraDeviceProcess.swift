import CameraTools
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `prospero studio --camera [DEVICE]`: this machine's camera read by scripts/camera/prospero_camera.py
/// `--frames-stdout` in the camera venv, which writes each frame downscaled to fit 320×240 as a JPEG record
/// (4-byte big-endian length n, UInt16 BE width, UInt16 BE height, n − 4 bytes of JPEG), at most ``fps`` a
/// second. The frames go to `frames` (the studio's camera desk tracks them with its one bridge process and
/// streams them as the preview); nothing is written to disk. When the child dies, its last error line is
/// reported through `log` and it starts again after 0.5, 1, 2, 4, then every 8 s (back to 0.5 s after a 30 s
/// run), as the tracking bridge does.
public final class CameraDeviceProcess: @unchecked Sendable {
    /// What `--camera` reads: the script's arguments for it, and how it is named in messages.
    public struct Source: Sendable, Equatable {
        public var arguments: [String]
        public var name: String

        public init(arguments: [String], name: String) {
            self.arguments = arguments
            self.name = name
        }
    }

    /// A record longer than this (bytes) means the child and the studio disagree: the child is ended.
    static let maximumRecord = 1 << 20

    public let source: Source
    public let fps: Double
    private let locate: @Sendable () throws(CameraBridgeUnavailable) -> CameraBridgeLocator
    private let lock = NSLock()
    private var process: Process?
    private var stopped = false
    private var backoff = CameraRestartBackoff()
    private var startedAt = 0.0
    private var errorLines: [String] = []
    private var frames: (@Sendable ([UInt8], Int, Int) -> Void)?
    private var log: (@Sendable (String) -> Void)?

    /// - Parameters:
    ///   - source: from ``resolve(_:)``.
    ///   - fps: frames a second at most (1…60).
    public init(source: Source, fps: Double = 30, locate: @escaping @Sendable () throws(CameraBridgeUnavailable) -> CameraBridgeLocator = { () throws(CameraBridgeUnavailable) in
        try CameraBridgeLocator.locate()
    }) {
        self.source = source
        self.fps = min(max(fps, 1), 60)
        self.locate = locate
        signal(SIGPIPE, SIG_IGN)
    }

    /// What `DEVICE` names: nil or empty, the first camera (index 0); a number, that camera (`/dev/videoN`
    /// on Linux); a path, a camera device or a video file (played at its own rate, from the start again at
    /// its end). Throws a message naming what is missing.
    public static func resolve(_ device: String?) throws(CameraBridgeUnavailable) -> Source {
        let fm = FileManager.default
        let text = device?.trimmingCharacters(in: .whitespaces) ?? ""
        if text.isEmpty || text.allSatisfy(\.isNumber) {
            let index = Int(text.isEmpty ? "0" : text) ?? 0
            #if os(Linux)
            let node = "/dev/video\(index)"
            guard fm.fileExists(atPath: node) else {
                throw CameraBridgeUnavailable(message: "--camera: no camera \(index) (\(node) does not exist; `ls /dev/video*` lists the cameras, or give a video file)")
            }
            return Source(arguments: ["--device", node], name: node)
            #else
            return Source(arguments: ["--device", String(index)], name: "camera \(index)")
            #endif
        }
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: text, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CameraBridgeUnavailable(message: "--camera: no camera or video file at \(text)")
        }
        guard fm.isReadableFile(atPath: text) else {
            throw CameraBridgeUnavailable(message: "--camera: cannot read \(text) (is this user in the video group?)")
        }
        let isDevice = ((try? fm.attributesOfItem(atPath: text)[.type]) as? FileAttributeType) == .typeCharacterSpecial
        return Source(arguments: [isDevice ? "--device" : "--video", text], name: text)
    }

    /// Starts the child; `frames` gets each JPEG with its width and height, `log` what the studio prints.
    public func start(frames: @escaping @Sendable (_ jpeg: [UInt8], _ width: Int, _ height: Int) -> Void,
                      log: @escaping @Sendable (String) -> Void) {
        lock.withLock {
            self.frames = frames
            self.log = log
        }
        launch()
    }

    private func launch() {
        let tools: CameraBridgeLocator
        do throws(CameraBridgeUnavailable) { tools = try locate() } catch {
            report("the studio camera cannot run: \(error.message)")
            return
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: tools.python)
        child.arguments = [tools.script, "--frames-stdout", "--fps", String(fps)] + source.arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GLOG_minloglevel"] = environment["GLOG_minloglevel"] ?? "2"
        child.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = stdout
        child.standardError = stderr
        let errorsRead = DispatchSemaphore(value: 0)
        child.terminationHandler = { [weak self] ended in
            _ = errorsRead.wait(timeout: .now() + 1)
            self?.ended(ended)
        }
        let started: Bool = lock.withLock {
            guard !stopped else { return false }
            errorLines = []
            do { try child.run() } catch { return false }
            process = child
            startedAt = ProcessInfo.processInfo.systemUptime
            return true
        }
        guard started else { return }
        readRecords(stdout.fileHandleForReading, child)
        Thread.detachNewThread { [weak self] in
            let handle = stderr.fileHandleForReading
            var buffer: [UInt8] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer.append(contentsOf: data)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    if !line.isEmpty, let self { self.lock.withLock { self.errorLines = Array((self.errorLines + [line]).suffix(8)) } }
                }
            }
            errorsRead.signal()
        }
    }

    /// Reads the child's records on a thread of its own until its end.
    private func readRecords(_ handle: FileHandle, _ child: Process) {
        Thread.detachNewThread { [weak self] in
            var buffer: [UInt8] = []
            reading: while true {
                let data = handle.availableData
                if data.isEmpty { break }
                buffer.append(contentsOf: data)
                while buffer.count >= 8 {
                    let n = buffer[0..<4].reduce(0) { $0 << 8 | Int($1) }
                    guard n >= 4, n <= Self.maximumRecord else {
                        child.terminate()
                        break reading
                    }
                    guard buffer.count >= 4 + n else { break }
                    let width = Int(buffer[4]) << 8 | Int(buffer[5]), height = Int(buffer[6]) << 8 | Int(buffer[7])
                    let jpeg = Array(buffer[8..<(4 + n)])
                    buffer.removeSubrange(0..<(4 + n))
                    guard let self else { break reading }
                    let deliver = self.lock.withLock { self.process === child ? self.frames : nil }
                    deliver?(jpeg, width, height)
                }
            }
            try? handle.close()
        }
    }

    private func ended(_ child: Process) {
        let wait: Double? = lock.withLock {
            guard process === child else { return nil }
            process = nil
            guard !stopped else { return nil }
            return backoff.wait(startedAt: startedAt, diedAt: ProcessInfo.processInfo.systemUptime)
        }
        guard let wait else { return }
        let status = child.terminationReason == .uncaughtSignal ? "signal \(child.terminationStatus)" : "exit status \(child.terminationStatus)"
        let last = lock.withLock { errorLines.last { $0.hasPrefix("prospero camera:") } ?? errorLines.last }
        report("the studio camera (\(source.name)) stopped (\(last.map { "\(status): \($0.prefix(300))" } ?? status)); restarting in \(wait) s")
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [weak self] in self?.launch() }
    }

    private func report(_ line: String) {
        lock.withLock { log }?(line)
    }

    /// Ends the child (SIGTERM, SIGKILL after 2 s); it is not started again.
    public func stop() {
        let child: Process? = lock.withLock {
            stopped = true
            return process
        }
        child?.end()
    }
}
