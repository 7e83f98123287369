import CameraTools
import Foundation
import Studio

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The studio's one long-lived camera bridge: scripts/camera/prospero_camera.py `--frames-stdin` (faces and hands) in
/// the camera venv, started on the first frame, fed length-prefixed JPEG records on its stdin and read line
/// by line from its stdout (``StudioCameraBridgeLine``). When it dies, the next start waits 0.5, 1, 2, 4, then
/// 8 s (back to 0.5 s once a run lasted 30 s); the death and the wait are reported. No camera environment is
/// reported as unavailable, with the message naming scripts/camera-setup (looked for again 5 s later).
/// The child never outlives the studio: the script asks Linux to end it with its parent, and ``stop()``
/// ends it (SIGTERM, SIGKILL after 2 s). Frames pass through pipes only; nothing is written to disk.
public final class CameraBridgeProcess: StudioCameraBridge, @unchecked Sendable {
    /// Seconds before a missing environment is looked for again.
    public static let unavailableRetry = 5.0
    /// An output line longer than this (bytes) is cut off and reported as malformed.
    static let maximumLine = 256 * 1024

    private let locate: @Sendable () throws(CameraBridgeUnavailable) -> CameraBridgeLocator
    private let clock: @Sendable () -> Double
    private let lock = NSLock()
    private var events: (@Sendable (StudioCameraBridgeEvent) -> Void)?
    private var process: Process?
    private var input: FileHandle?
    private var notBefore = -Double.infinity
    private var backoff = CameraRestartBackoff()
    private var startedAt = 0.0
    private var stopped = false
    /// The last lines the child wrote on stderr (what a death is reported with).
    private var errorLines: [String] = []

    /// - Parameters:
    ///   - locate: finds the venv's Python and the script (default: ``CameraBridgeLocator/locate(environment:)``).
    ///   - clock: seconds, monotonic, that the waits before a start count on (default: the system's uptime).
    public init(locate: @escaping @Sendable () throws(CameraBridgeUnavailable) -> CameraBridgeLocator = { () throws(CameraBridgeUnavailable) in
        try CameraBridgeLocator.locate()
    }, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.locate = locate
        self.clock = clock
        // A write to the pipe of a child that just died must fail with EPIPE, not end the studio.
        signal(SIGPIPE, SIG_IGN)
    }

    public func start(events: @escaping @Sendable (StudioCameraBridgeEvent) -> Void) {
        lock.withLock { self.events = events }
    }

    public func send(id: UInt32, stream: UInt16, model: StudioCameraModel, jpeg: ArraySlice<UInt8>) -> Bool {
        var report: [StudioCameraBridgeEvent] = []
        lock.lock()
        if !stopped, process == nil, clock() >= notBefore {
            do throws(CameraBridgeUnavailable) {
                let tools = try locate()
                report.append(.starting)
                do { try launch(tools) } catch {
                    let wait = nextWait()
                    report.append(.exited(reason: "could not start \(tools.python): \(error)", restartIn: wait))
                }
            } catch {
                notBefore = clock() + Self.unavailableRetry
                report.append(.unavailable(error.message))
            }
        }
        let handle = stopped ? nil : input
        let emit = events
        lock.unlock()
        for event in report { emit?(event) }
        guard let handle else { return false }
        var record = [UInt8]()
        record.reserveCapacity(11 + jpeg.count)
        let length = UInt32(7 + jpeg.count)
        for shift in stride(from: 24, through: 0, by: -8) { record.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        for shift in stride(from: 24, through: 0, by: -8) { record.append(UInt8(truncatingIfNeeded: id >> UInt32(shift))) }
        record.append(UInt8(stream >> 8))
        record.append(UInt8(stream & 0xFF))
        record.append(model.rawValue)
        record.append(contentsOf: jpeg)
        // A failed write means the child is gone: its termination handler reports that.
        do { try handle.write(contentsOf: record) } catch { return false }
        return true
    }

    /// The wait before the next start after a death (under the lock).
    private func nextWait() -> Double {
        let now = clock()
        let wait = backoff.wait(startedAt: startedAt, diedAt: now)
        notBefore = now + wait
        return wait
    }

    /// Starts the child (under the lock).
    private func launch(_ tools: CameraBridgeLocator) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: tools.python)
        child.arguments = [tools.script, "--frames-stdin"]
        var environment = ProcessInfo.processInfo.environment
        // MediaPipe's C++ logging (glog/absl) otherwise fills the log on every start.
        environment["GLOG_minloglevel"] = environment["GLOG_minloglevel"] ?? "2"
        environment["TF_CPP_MIN_LOG_LEVEL"] = environment["TF_CPP_MIN_LOG_LEVEL"] ?? "2"
        child.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        child.standardInput = stdin
        child.standardOutput = stdout
        child.standardError = stderr
        let errorsRead = DispatchSemaphore(value: 0)
        child.terminationHandler = { [weak self] ended in
            // The last error lines first (the pipe ends with the child), then the report.
            _ = errorsRead.wait(timeout: .now() + 1)
            self?.ended(ended)
        }
        errorLines = []
        try child.run()
        process = child
        input = stdin.fileHandleForWriting
        startedAt = clock()
        readLines(stdout.fileHandleForReading) { [weak self] line in
            guard let self else { return }
            let emit = self.lock.withLock { self.process === child ? self.events : nil }
            emit?(.line(line))
        } done: {}
        readLines(stderr.fileHandleForReading) { [weak self] line in
            guard let self, let text = String(validating: line, as: UTF8.self), !text.isEmpty else { return }
            self.lock.withLock {
                self.errorLines.append(text)
                if self.errorLines.count > 8 { self.errorLines.removeFirst() }
            }
        } done: { errorsRead.signal() }
    }

    /// Reads `handle` on a thread of its own, line by line, until its end.
    private func readLines(_ handle: FileHandle, _ line: @escaping @Sendable ([UInt8]) -> Void, done: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            var buffer: [UInt8] = []
            var skipping = false
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                for byte in data {
                    if byte == 0x0A {
                        if !skipping { line(buffer) }
                        buffer.removeAll(keepingCapacity: true)
                        skipping = false
                    } else if buffer.count < Self.maximumLine {
                        buffer.append(byte)
                    } else if !skipping {
                        line(Array(buffer.prefix(64)))  // reported as a malformed line
                        skipping = true
                    }
                }
            }
            try? handle.close()
            done()
        }
    }

    private func ended(_ child: Process) {
        let report: StudioCameraBridgeEvent? = lock.withLock {
            guard process === child else { return nil }
            process = nil
            try? input?.close()
            input = nil
            guard !stopped else { return nil }
            let status = child.terminationReason == .uncaughtSignal ? "signal \(child.terminationStatus)" : "exit status \(child.terminationStatus)"
            // The bridge's own messages start with "prospero camera:"; else Python's last line (a traceback's error).
            let last = errorLines.last { $0.hasPrefix("prospero camera:") } ?? errorLines.last
            let reason = last.map { "\(status): \($0.prefix(300))" } ?? status
            let wait = nextWait()
            if let last, last.contains("camera-setup") { return .unavailable(String(last.prefix(400))) }
            return .exited(reason: reason, restartIn: wait)
        }
        if let report { lock.withLock { events }?(report) }
    }

    public func stop() {
        let child: Process? = lock.withLock {
            stopped = true
            try? input?.close()
            input = nil
            return process
        }
        // End of input ends the bridge; a signal makes sure.
        child?.end()
    }
}
