import ArgumentParser
import Enobarbus
import EnobarbusUDP
import Foundation
import Horatio
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `prospero osc …`: tracking input over OSC.
struct OSCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osc",
        abstract: "Receive face, hand and touch input over OSC (UDP).",
        discussion: """
            Understands Prospero's own /prospero/… scheme, Face Cap, ZIG SIM, mediapipe-osc hands, \
            TouchOSC Multi-XY, Open Stage Control multixy and TUIO 1.1 cursors.
            """,
        subcommands: [OSCMonitorCommand.self, OSCRecordCommand.self]
    )
}

struct OSCListenOptions: ParsableArguments {
    @Option(help: "UDP port to listen on.")
    var port: Int = 9000
    @Option(help: "Interface to bind. Only 127.0.0.1 by default; use 0.0.0.0 to accept other machines.")
    var host: String = "127.0.0.1"
    @Option(help: "Stop after this many seconds (default: run until Ctrl-C).")
    var duration: Double?
    @Option(help: "Seconds without frames after which a source is lost.")
    var timeout: Double = 0.25

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }
}

/// Set by SIGINT; the receive loops poll it.
let interruptRequested = Atomic<Bool>(false)

/// Collects packets from the receiver's event loop for the command's main loop.
final class PacketInbox: Sendable {
    let queue = Mutex<[ReceivedOSCPacket]>([])
    func take() -> [ReceivedOSCPacket] { queue.withLock { q in defer { q.removeAll(keepingCapacity: true) }; return q } }
}

/// Runs the receive loop until Ctrl-C or `duration`: binds, then every 20 ms hands the new
/// packets to `body` and calls `tick`. Returns the receiver's final statistics.
func runOSCInput(_ options: OSCListenOptions, banner: String,
                 body: (ReceivedOSCPacket) -> Void, tick: (Double, OSCReceiverStatistics) -> Void) throws -> OSCReceiverStatistics {
    let inbox = PacketInbox()
    let receiver = try OSCUDPReceiver.bind(host: options.host, port: options.port, bufferLimit: 0) { packet in
        inbox.queue.withLock { $0.append(packet) }
    }.wait()
    interruptRequested.store(false, ordering: .relaxed)
    signal(SIGINT) { _ in interruptRequested.store(true, ordering: .relaxed) }
    defer { signal(SIGINT, SIG_DFL) }
    print("\(banner) on udp \(receiver.localAddress) (Ctrl-C to stop)")
    fflush(nil)
    let start = MonotonicClock.now()
    while !interruptRequested.load(ordering: .relaxed) {
        let now = MonotonicClock.now()
        if let d = options.duration, now - start >= d { break }
        for packet in inbox.take() { body(packet) }
        tick(now, receiver.statistics)
        usleep(20_000)
    }
    for packet in inbox.take() { body(packet) }
    let statistics = receiver.statistics
    try receiver.close().wait()
    return statistics
}

struct OSCMonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor", abstract: "Show decoded sources and their frame rates, refreshed twice a second.")

    @OptionGroup var listen: OSCListenOptions

    func run() throws {
        var assembler = OSCFrameAssembler()
        var lifecycle = SourceLifecycle(timeout: listen.timeout)
        var monitor = SourceMonitor()
        let interactive = isatty(STDOUT_FILENO) == 1
        var lastPrint = MonotonicClock.now()
        let stats = try runOSCInput(listen, banner: "prospero osc monitor", body: { received in
            let frames = assembler.ingest(received.packet, at: received.time)
            for event in lifecycle.ingest(frames, at: received.time) { monitor.note(event) }
        }, tick: { now, stats in
            for event in lifecycle.ingest(assembler.flush(now: now), at: now) { monitor.note(event) }
            guard now - lastPrint >= 0.5 else { return }
            let lines = monitor.report(now: now, lifecycle: lifecycle, assembler: assembler, statistics: stats)
            if interactive { print("\u{1B}[H\u{1B}[2J", terminator: "") }
            print(lines.joined(separator: "\n") + (interactive ? "" : "\n"))
            fflush(nil)
            lastPrint = now
        })
        print("stopped: \(stats.packets) packets, \(stats.malformed) malformed, \(assembler.acceptedMessages) messages accepted, \(assembler.rejectedMessages) rejected")
    }
}

/// Per-source frame counts and the text lines the monitor prints.
struct SourceMonitor {
    var frameTimes: [InputSourceID: [Double]] = [:]
    var events: [String] = []
    var fingers: [Int: FingerCounter] = [:]
    var pinches: [Int: PinchDetector] = [:]

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

    mutating func report(now: Double, lifecycle: SourceLifecycle, assembler: OSCFrameAssembler,
                         statistics: OSCReceiverStatistics) -> [String] {
        var lines: [String] = []
        for id in lifecycle.snapshot.present {
            let times = (frameTimes[id] ?? []).filter { $0 > now - 1 }
            frameTimes[id] = times
            let rate = String(format: "%5.1f Hz", Double(times.count))
            lines.append("\(id.description.padding(toLength: 7, withPad: " ", startingAt: 0)) \(rate)  \(summary(lifecycle.snapshot[id]))")
        }
        if lines.isEmpty { lines.append("(no sources)") }
        lines.append("packets \(statistics.packets)  malformed \(statistics.malformed)  dropped \(statistics.dropped)"
            + "  accepted \(assembler.acceptedMessages)  rejected \(assembler.rejectedMessages)  ignored \(assembler.ignoredMessages)")
        if let e = statistics.lastError { lines.append("last malformed packet from \(statistics.lastErrorSender ?? "?"): \(e)") }
        if let r = assembler.lastRejection { lines.append("last rejected message: \(r)") }
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
        var assembler = OSCFrameAssembler()
        var start: Double?
        var count = 0
        var pending = ""
        var lastFlush = MonotonicClock.now()
        var writeError: (any Error)?
        // The file stays readable: recording stops at the reader's frame and size limits.
        let limits = RecordingLimits()
        var bytes = 0
        var full = false
        func add(_ frames: [TrackingFrame]) {
            for var frame in frames where !full {
                frame.timestamp = frame.timestamp - (start ?? frame.timestamp)
                let line = Recording.line(for: frame) + "\n"
                guard count < limits.maximumFrames, bytes + line.utf8.count < limits.maximumBytes - 4096 else {
                    full = true
                    interruptRequested.store(true, ordering: .relaxed)
                    FileHandle.standardError.write(Data("prospero osc record: stopped at the recording limit (\(limits.maximumFrames) frames or \(limits.maximumBytes) bytes)\n".utf8))
                    return
                }
                pending += line
                bytes += line.utf8.count
                count += 1
            }
        }
        let stats = try runOSCInput(listen, banner: "prospero osc record \(file)", body: { received in
            start = start ?? received.time
            add(assembler.ingest(received.packet, at: received.time))
        }, tick: { now, _ in
            add(assembler.flush(now: now))
            guard now - lastFlush >= 0.25, !pending.isEmpty, writeError == nil else { return }
            do { try handle.write(contentsOf: Data(pending.utf8)) } catch { writeError = error }
            pending = ""
            lastFlush = now
        })
        add(assembler.flush(now: .infinity))
        if !pending.isEmpty, writeError == nil { try handle.write(contentsOf: Data(pending.utf8)) }
        if let writeError { throw writeError }
        print("recorded \(count) frames to \(file) (\(stats.packets) packets, \(stats.malformed) malformed)")
    }
}
