import ArgumentParser
import Enobarbus
import Foundation
import Horatio
import LiveHost
import LiveHostPOSIX
import ProsperoCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `prospero osc …`: tracking input over OSC.
struct OSCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osc",
        abstract: "Receive face, hand and touch input over UDP (OSC and the phone apps' own formats).",
        discussion: """
            Understands Prospero's own /prospero/… scheme, Face Cap, ZIG SIM, mediapipe-osc hands, \
            TouchOSC Multi-XY, Open Stage Control multixy, TUIO 1.1 cursors, FaceOSC, mpmocap/Phiz, \
            Visage and Wekinator /wek/outputs (OSC), iFacialMocap (text) and Live Link Face (binary), \
            each datagram's format detected on the one port. Malformed datagrams are counted, never fatal.
            """,
        subcommands: [OSCMonitorCommand.self, OSCRecordCommand.self]
    )
}

struct OSCListenOptions: ParsableArguments {
    @OptionGroup var network: LiveInputArguments
    @Option(help: "Stop after this many seconds (default: run until Ctrl-C).")
    var duration: Double?
    @Option(help: "Seconds without frames after which a source is lost.")
    var timeout: Double = 0.25

    func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be positive") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") }
    }
}

/// Runs `instrument` on the live host until `stop` (Ctrl-C, SIGTERM, SIGHUP, the duration); prints the
/// banner once listening and hands every status snapshot to `onStatus`. Returns the final status.
func runOSCInput(_ options: OSCListenOptions, stop: LiveStop, banner: String, instrument: any LiveInstrument, statusInterval: Double,
                 onStatus: @escaping (LiveHostStatus) -> Void) throws -> (LiveStopReason?, LiveHostStatus) {
    let hostOptions = try options.network.hostOptions(tick: 0.01, statusInterval: statusInterval)
    let host = LiveHost(source: options.network.source(), instrument: instrument, stop: stop, options: hostOptions,
                        sink: try options.network.sink())
    do { try host.start() } catch {
        throw ValidationError("cannot listen on udp \(options.network.host):\(options.network.port): \(error)")
    }
    StandardOutput.line("\(banner) on udp \(host.source.localAddress), accepting \(hostOptions.allow)\(options.network.outputsBanner) (Ctrl-C to stop)")
    let status = try host.run(onStatus: onStatus)
    return (stop.reason, status)
}

struct OSCMonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor", abstract: "Show decoded sources and their frame rates, refreshed twice a second.")

    @OptionGroup var listen: OSCListenOptions

    func run() throws {
        let instrument = MonitorInstrument(timeout: listen.timeout)
        let interactive = isatty(STDOUT_FILENO) == 1
        let (reason, status) = try runOSCInput(listen, stop: LiveCommand.begin(duration: listen.duration), banner: "prospero osc monitor", instrument: instrument, statusInterval: 0.5) { status in
            let lines = instrument.report(status)
            if interactive { StandardOutput.write("\u{1B}[H\u{1B}[2J") }
            StandardOutput.line(lines.joined(separator: "\n") + (interactive ? "" : "\n"))
        }
        StandardOutput.line(LiveCommand.summary(reason, status)
            + ", \(status.acceptedMessages) messages accepted, \(status.rejectedMessages) rejected")
    }
}

/// The monitor as a live instrument: frames → lifecycle → per-source rates and events; and per
/// sender (iFacialMocap, Live Link Face, Face Cap…) its latest decoded frame, its rate and Wekinator's outputs.
final class MonitorInstrument: LiveInstrument {
    var lifecycle: SourceLifecycle
    var monitor = SourceMonitor()
    var now = 0.0

    init(timeout: Double) { lifecycle = SourceLifecycle(timeout: timeout) }

    func receive(_ frames: [TrackingFrame], at time: Double) { receive(frames, from: nil, at: time) }

    func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double) {
        for event in lifecycle.ingest(frames, at: time) { monitor.note(event) }
        if let sender { monitor.note(frames, from: sender, at: time) }
    }

    func receiveControls(_ outputs: [Float], at time: Double) { monitor.note(controls: outputs, at: time) }

    func advance(to time: Double) {
        now = time
        for event in lifecycle.advance(to: time) { monitor.note(event) }
    }

    func finish(at time: Double) {}

    func statusLine(at time: Double) -> String? { nil }

    func report(_ status: LiveHostStatus) -> [String] { monitor.report(now: now, lifecycle: lifecycle, status: status) }
}

/// Per-source frame counts and the text lines the monitor prints.
struct SourceMonitor {
    var frameTimes: [InputSourceID: [Double]] = [:]
    var events: [String] = []
    var fingers: [Int: FingerCounter] = [:]
    var pinches: [Int: PinchDetector] = [:]
    /// Per sender: the latest frame of each of its sources, and when its frames arrived (last second).
    var senderFrames: [InputSender: [InputSourceID: TrackingFrame]] = [:]
    var senderTimes: [InputSender: [Double]] = [:]
    var controls: (outputs: [Float], time: Double)?
    var controlTimes: [Double] = []

    mutating func note(_ frames: [TrackingFrame], from sender: InputSender, at time: Double) {
        for frame in frames {
            if case .ended(let id, _) = frame { senderFrames[sender]?[id] = nil } else { senderFrames[sender, default: [:]][frame.source] = frame }
        }
        senderTimes[sender, default: []].append(time)
        if senderTimes[sender]!.count > 2_000 { senderTimes[sender]!.removeFirst(1_000) }
    }

    mutating func note(controls outputs: [Float], at time: Double) {
        controls = (outputs, time)
        controlTimes.append(time)
        if controlTimes.count > 2_000 { controlTimes.removeFirst(1_000) }
    }

    mutating func note(_ event: SourceEvent) {
        switch event {
        case .appeared(let f), .updated(let f):
            frameTimes[f.source, default: []].append(f.timestamp)
            if case .appeared = event { events.append("\(f.source) appeared") }
            if case .hand(let h) = f {
                fingers[h.slot, default: FingerCounter()].update(h)
                pinches[h.slot, default: PinchDetector()].update(h)
            }
        case .lost(let id, _, let reason):
            events.append("\(id) lost (\(reason.rawValue))")
            frameTimes[id] = nil
            if case .hand(let s) = id { fingers[s] = nil; pinches[s] = nil }
        }
        if events.count > 5 { events.removeFirst(events.count - 5) }
    }

    mutating func report(now: Double, lifecycle: SourceLifecycle, status: LiveHostStatus) -> [String] {
        var lines: [String] = []
        for id in lifecycle.snapshot.present {
            let times = (frameTimes[id] ?? []).filter { $0 > now - 1 }
            frameTimes[id] = times
            let rate = String(format: "%5.1f Hz", Double(times.count))
            lines.append("\(id.description.padding(toLength: 7, withPad: " ", startingAt: 0)) \(rate)  \(summary(lifecycle.snapshot[id]))")
        }
        if lines.isEmpty { lines.append("(no sources)") }
        // Each sender decoded: its rate and its latest frame of every source it sends.
        for sender in senderFrames.keys.sorted() {
            let times = (senderTimes[sender] ?? []).filter { $0 > now - 1 }
            senderTimes[sender] = times
            for (id, frame) in (senderFrames[sender] ?? [:]).sorted(by: { $0.key.denseIndex < $1.key.denseIndex }) {
                lines.append("\(sender.description.padding(toLength: 18, withPad: " ", startingAt: 0)) \(String(format: "%5.1f Hz", Double(times.count)))  "
                    + "\(id.description.padding(toLength: 7, withPad: " ", startingAt: 0)) \(summary(frame))")
            }
        }
        if let controls {
            controlTimes = controlTimes.filter { $0 > now - 1 }
            lines.append("\(InputSender.wekinator.description.padding(toLength: 18, withPad: " ", startingAt: 0)) "
                + "\(String(format: "%5.1f Hz", Double(controlTimes.count)))  outputs "
                + controls.outputs.prefix(16).map { String(format: "%.3f", $0) }.joined(separator: " ")
                + (controls.outputs.count > 16 ? " … (\(controls.outputs.count))" : ""))
        }
        lines.append(status.countersLine)
        if let senders = status.sendersLine { lines.append("senders: " + senders) }
        if status.wekinatorVectorsSent > 0 { lines.append("wekinator inputs sent: \(status.wekinatorVectorsSent)") }
        if status.handshakesSent > 0 { lines.append("handshakes sent: \(status.handshakesSent)") }
        if let e = status.lastMalformed { lines.append("last malformed packet: \(e)") }
        if let s = status.lastRefusedSender { lines.append("last refused sender: \(s) (not in the allow-list)") }
        if let r = status.lastRejection { lines.append("last rejected message: \(r)") }
        if !events.isEmpty { lines.append("events: " + events.joined(separator: "; ")) }
        return lines
    }

    func summary(_ frame: TrackingFrame?) -> String {
        switch frame {
        case .face(let f)?:
            let top = ARKitBlendshape.allCases.sorted { f.blendshapes[$0] > f.blendshapes[$1] }.prefix(3)
                .filter { f.blendshapes[$0] > 0 }
                .map { "\($0.name) \(String(format: "%.2f", f.blendshapes[$0]))" }
            return String(format: "yaw %6.1f° pitch %6.1f° roll %6.1f°  ", f.head.yaw, f.head.pitch, f.head.roll)
                + top.joined(separator: ", ")
        case .hand(let h)?:
            let count = fingers[h.slot]?.count ?? 0
            let pinch = pinches[h.slot]?.isPinching == true ? "pinch" : "open"
            return String(format: "%@ conf %.2f wrist (%.3f, %.3f) fingers %d %@",
                          h.handedness.rawValue, h.confidence, h[.wrist].x, h[.wrist].y, count, pinch)
        case .touch(let t)?:
            return String(format: "x %.3f y %.3f pressure %.2f", t.x, t.y, t.pressure)
        default:
            return ""
        }
    }
}

struct OSCRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record", abstract: "Record normalised input frames to a JSON Lines file (see Enobarbus' Recording).")

    @Argument(help: "The recording file to write (replaced if it exists).")
    var file: String
    @OptionGroup var listen: OSCListenOptions
    @Option(help: "A note stored in the file's header.")
    var note: String = ""

    func run() throws {
        guard FileManager.default.createFile(atPath: file, contents: nil) else {
            throw ValidationError("cannot create \(file)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        let created = ISO8601DateFormatter().string(from: Date())
        try handle.write(contentsOf: Data((Recording.headerLine(created: created, note: note) + "\n").utf8))
        let stop = LiveCommand.begin(duration: listen.duration)
        let recorder = RecorderInstrument(handle: handle) {
            // The file stays readable: recording stops at the reader's frame and size limits.
            FileHandle.standardError.write(Data("prospero osc record: stopped at the recording limit (\($0.maximumFrames) frames or \($0.maximumBytes) bytes)\n".utf8))
            stop.request(.requested)
        }
        let (reason, status) = try runOSCInput(listen, stop: stop, banner: "prospero osc record \(file)", instrument: recorder,
                                               statusInterval: 1) { _ in }
        if let error = recorder.writeError { throw ValidationError("writing \(file): \(error)") }
        StandardOutput.line("recorded \(recorder.count) frames to \(file) (\(LiveCommand.summary(reason, status)))")
    }
}

/// The recorder as a live instrument: one whole JSON line per frame, written in whole lines a
/// quarter of a second at a time and at the stop, so the file is complete whenever it ends.
final class RecorderInstrument: LiveInstrument {
    let handle: FileHandle
    let limits = RecordingLimits()
    /// Called once when the next line would pass the reader's frame or size limit.
    let onFull: (RecordingLimits) -> Void
    private(set) var count = 0
    private var bytes = 0
    private var full = false
    private(set) var writeError: (any Error)?
    private var start: Double?
    private var pending = ""
    private var lastFlush = 0.0

    init(handle: FileHandle, onFull: @escaping (RecordingLimits) -> Void) {
        self.handle = handle
        self.onFull = onFull
    }

    func receive(_ frames: [TrackingFrame], at time: Double) {
        for var frame in frames where !full {
            let t0 = start ?? frame.timestamp
            start = t0
            frame.timestamp = frame.timestamp - t0
            let line = Recording.line(for: frame) + "\n"
            guard count < limits.maximumFrames, bytes + line.utf8.count < limits.maximumBytes - 4096 else {
                full = true
                onFull(limits)
                return
            }
            pending += line
            bytes += line.utf8.count
            count += 1
        }
    }

    func advance(to time: Double) {
        if time - lastFlush >= 0.25 {
            flush()
            lastFlush = time
        }
    }

    func finish(at time: Double) { flush() }

    func statusLine(at time: Double) -> String? { "\(count) frames recorded" }

    private func flush() {
        guard !pending.isEmpty, writeError == nil else { return }
        do { try handle.write(contentsOf: Data(pending.utf8)) } catch { writeError = error }
        pending = ""
    }
}
