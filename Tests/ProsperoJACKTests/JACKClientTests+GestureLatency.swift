import Enobarbus
import Foundation
import Glibc
import ProsperoJACK
import ProsperoTestSupport
import Testing

/// Gesture → sound of live Hecate (issue 30), end to end on `jackd -d dummy`, in JACK frames, as a new user
/// would measure it: the test stamps each face it sends over UDP with `jack_frame_time` and a probe client of
/// its own records the frame time of the first non-silent sample at `out_left` (the probe is the port's only
/// destination, so JACK reports no playback latency to add). Non-silent is −120 dBFS for Hecate: a face fades
/// Hecate in along a 450 ms S-curve (`DroneSynthEngine.fadeInTime`), which takes about 17 ms to reach
/// −60 dBFS but well under a millisecond to leave −120 dBFS, and Hecate without a face renders silence.
/// Two senders: the native bundle (`/prospero/face/blend jawOpen 0.9` + `/prospero/face/head`, as the
/// camera bridge sends a frame) and a Face Cap stream (a frame of 57 loose datagrams: `/HT`, `/HR`, `/HRQ`,
/// `/ELR`, `/ERR`, then `/W 0` … `/W 51` with jawOpen 0.9), which closes on its last `/W` from the first frame
/// on; it is stamped at that last datagram, when the frame is whole. The burst before it is the sender's (about
/// a millisecond on a phone, whose receiver reads each datagram as it comes): the test sends it a period ahead,
/// so the last datagram does not queue behind 56 that this test sent at once, and the disturbance check starts
/// after it.
/// And MIDI in → sound: a note-on written by a second client of the test (`MIDINoteProbe`) at its period's
/// first frame into `prospero play`'s `midi_in`.
///
/// At 64-frame periods: median ≤ 5 ms (240 frames), worst ≤ median + 2 ms (96 frames). At every period,
/// the median ≤ input delay + the live limiter's 1 ms + a period + 1 ms. An event the machine's load
/// disturbed (an xrun, the server's periods off time, a thread kept from a CPU for a period) is sent again,
/// and a run with too many of them is made again; the bounds are never loosened.
extension JACKClientTests {
    enum GestureSender: String, CustomStringConvertible, CaseIterable, Sendable {
        /// The native bundle and a Face Cap stream to `prospero hecate`; a note on `midi_in` of `prospero play`.
        case bundle, faceCap, midiIn
        var description: String {
            switch self {
            case .bundle: "native bundle → hecate"
            case .faceCap: "Face Cap stream → hecate"
            case .midiIn: "MIDI in → play"
            }
        }
    }

    struct GestureRun: CustomStringConvertible {
        var period: Int
        var sender: GestureSender
        /// Frames from each send to the first non-silent sample at out_left.
        var frames: [Int]
        var disturbedEvents: Int
        var output: String
        /// "input → sound N frames" as prospero printed it.
        var printedInputToSound: Int?
        /// Xruns in all and those prospero's own callback caused, by its `--callback-timing` account (nil: none printed).
        var xruns: XrunTally?

        var isDisturbed: Bool { frames.count < JACKClientTests.gestureEvents }
        var median: Int { LatencyRun.median(frames) }
        var worst: Int { frames.max() ?? .max }

        var description: String {
            let ms = { (f: Int) in String(format: "%.2f ms", Double(f) / 48) }
            let low = frames.min() ?? 0
            return "\(sender) at -p \(period): median \(median) frames (\(ms(median))), range \(low) … \(worst == .max ? 0 : worst) frames "
                + "(\(ms(low)) … \(ms(worst == .max ? 0 : worst))), n \(frames.count), printed input → sound \(printedInputToSound.map(String.init) ?? "?"), "
                + "\(disturbedEvents) events disturbed by xruns or stalls, sent again; "
                + (xruns.map(String.init(describing:)) ?? "no xrun account")
                // An xrun of ours: the callback account (CPU time, page faults, switches) says what it looked like.
                + ((xruns?.ours ?? 0) > 0 ? "\n" + JACKClientTests.callbackTimingLines(in: output) : "")
        }
    }

    static let gestureEvents = 16
    /// Sends a run may make to collect `gestureEvents` undisturbed events: at 64-frame periods on a machine
    /// busy with builds, most events meet a stall longer than a period (each is judged, never kept).
    static let gestureSendLimit = 5 * gestureEvents

    /// One face frame of `sender` with jawOpen 0.9, as the datagrams it sends.
    static func gestureDatagrams(_ sender: GestureSender) -> [[UInt8]] {
        switch sender {
        case .bundle:
            let frame = OSCPacket.bundle(OSCBundle([
                .message(OSCMessage("/prospero/face/blend", [.string("jawOpen"), .float32(0.9)])),
                .message(OSCMessage("/prospero/face/head", [.float32(0), .float32(0), .float32(0)])),
            ]))
            return [try! OSCEncoder.encode(frame)]
        case .midiIn:
            return []
        case .faceCap:
            let head: [OSCMessage] = [
                OSCMessage("/HT", [.float32(0), .float32(0), .float32(0.4)]), OSCMessage("/HR", [.float32(0), .float32(0), .float32(0)]),
                OSCMessage("/HRQ", [.float32(0), .float32(0), .float32(0), .float32(1)]),
                OSCMessage("/ELR", [.float32(0), .float32(0)]), OSCMessage("/ERR", [.float32(0), .float32(0)]),
            ]
            let jaw = ARKitBlendshape.faceCapOrderNames.firstIndex(of: "jawOpen")!
            let weights = (0..<52).map { OSCMessage("/W", [.int32(Int32($0)), .float32($0 == jaw ? 0.9 : 0)]) }
            return (head + weights).map { try! OSCEncoder.encode(.message($0)) }
        }
    }

    static let faceEnd = try! OSCEncoder.encode(.bundle(OSCBundle([.message(OSCMessage("/prospero/face/end", []))])))

    static func measureGestureLatency(period: Int, sender kind: GestureSender) throws -> GestureRun {
        let server = try JACKTestServer(period: period)
        let probe = try kind == .midiIn ? LatencyProbe(serverName: server.name)
            : LatencyProbe(serverName: server.name, onsetLevel: 1e-6, quietLevel: 1e-7)
        defer { probe.close() }
        let notes = try MIDINoteProbe(serverName: server.name)
        defer { notes.close() }
        let port = freePort
        let sender = try UDPTestSender()
        // No reverb, so the sound ends soon after the face (each event starts from silence).
        let prospero = try ProsperoOnJACK(
            kind == .midiIn
                ? ["play", "--client-name", "GestureHecate", "--no-connect-audio", "--release", "0.05", "--callback-timing"]
                : ["hecate", "--client-name", "GestureHecate", "--no-connect-audio", "--no-settings", "--reverb-mix", "0", "--port", "\(port)",
                   "--callback-timing"],
            server: server, log: "gesture")
        try prospero.waitForLine(containing: "MIDI in → sound", timeout: .seconds(10))
        try waitUntil("out_left to connect to the probe") { probe.connect("GestureHecate:out_left", to: probe.audioInput) }
        if kind == .midiIn { try waitUntil("the notes to connect to midi_in") { notes.connect(to: "GestureHecate:midi_in") } }
        usleep(100_000)

        let datagrams = gestureDatagrams(kind)
        func sendFace() {
            sendBurst()
            sendLast()
        }
        /// Everything of the frame but its last datagram (Face Cap's burst before `/W 51`).
        func sendBurst() {
            for d in datagrams.dropLast() { sender.send(d, port: port) }
        }
        func sendLast() {
            if kind == .midiIn { notes.request(note: 69, velocity: 100) }
            if let d = datagrams.last { sender.send(d, port: port) }
        }
        func endFace() {
            // Face Cap has no end message: the face is lost after Hecate's timeout without frames.
            if kind == .bundle { sender.send(faceEnd, port: port) }
            if kind == .midiIn { notes.request(note: 69, velocity: 0) }
        }
        // One face first (not measured): the launch fade-in.
        sendFace()
        usleep(300_000)
        endFace()

        let periodMicroseconds = period * 1_000_000 / 48_000
        let measured = [prospero.process.processIdentifier, server.jackd.pid, getpid()]
        var frames: [Int] = []
        var disturbed = 0, sent = 0
        var stalledRun = false
        var pending: (frames: Int, xrunsBefore: Int, quiet: Bool)?
        func judge() {
            guard let event = pending else { return }
            pending = nil
            if event.quiet && probe.xruns.load(ordering: .relaxed) == event.xrunsBefore { frames.append(event.frames) } else { disturbed += 1 }
        }
        // The last event is judged after the loop; when it was disturbed, the run sends again (a new run costs a
        // server and a process, and at 64 frames on a busy machine about half the events are disturbed).
        repeat {
            while frames.count + (pending == nil ? 0 : 1) < gestureEvents && sent < Self.gestureSendLimit {
                // After an xrun the run is disturbed, and made again like a stalled one.
                guard try probe.waitForSilence(before: sent, timeout: 5, xrunsSince: pending?.xrunsBefore) else {
                    stalledRun = true
                    break
                }
                usleep(50_000)  // a few periods of silence: the probe is armed
                judge()
                usleep(UInt32.random(in: 0..<UInt32(periodMicroseconds)))  // send at any phase of the period
                if kind == .faceCap {
                    sendBurst()
                    usleep(UInt32(periodMicroseconds))
                }
                let xrunsBefore = probe.xruns.load(ordering: .relaxed)
                _ = probe.takeCadenceSpread()
                let waitBefore = RunQueueWait.snapshot(measured)
                let onsetIndex = probe.onsetCount.load(ordering: .acquiring)
                let notesSent = notes.sentCount.load(ordering: .acquiring)
                var sendFrame = probe.frameTimeNow
                sendLast()
                var stampToSend = Int(Int32(bitPattern: probe.frameTimeNow &- sendFrame))
                if kind == .midiIn {
                    // The note enters the graph at the first frame of the period the note probe wrote it in.
                    try waitUntil("the note of event \(sent)", timeout: .seconds(2)) { notes.sentCount.load(ordering: .acquiring) > notesSent }
                    sendFrame = notes.lastSentFrame
                    stampToSend = 0
                }
                sent += 1
                do {
                    try waitUntil("the sound of event \(sent)", timeout: .seconds(2)) { probe.onsetCount.load(ordering: .acquiring) > onsetIndex }
                } catch {
                    guard probe.xruns.load(ordering: .relaxed) != xrunsBefore else { throw error }
                    stalledRun = true
                    break
                }
                let cadence = probe.takeCadenceSpread()
                var waited = 0
                if let before = waitBefore, let since = RunQueueWait.waited(measured, since: before) { waited = since }
                pending = (frames: Int(Int32(bitPattern: probe.recordedOnsets[onsetIndex] &- sendFrame)), xrunsBefore: xrunsBefore,
                           quiet: waited <= periodMicroseconds * 1_000 && stampToSend <= 48 && cadence <= periodMicroseconds)
                usleep(30_000)
                endFace()
            }
            usleep(300_000)
            judge()
        } while !stalledRun && frames.count < gestureEvents && sent < Self.gestureSendLimit
        if stalledRun { frames.removeAll() }
        try prospero.stop()
        let text = prospero.output
        let printed = text.split(separator: "\n").first { $0.contains("input → sound") }.flatMap { line -> Int? in
            guard let r = line.range(of: "input → sound ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        let run = GestureRun(period: period, sender: kind, frames: frames, disturbedEvents: disturbed, output: text, printedInputToSound: printed,
                             xruns: Self.xrunTally(in: text))
        print("gesture latency run: \(run)")
        return run
    }

    /// Live Hecate, default input delay (one period and ``JACKInputClock/Delay/defaultMarginFrames``), the live
    /// limiter (48 frames); MIDI into `prospero play`
    /// (no input delay: MIDI is read at its frame in the period it arrives in).
    @Test(.enabled(if: liveStopRunnable), arguments: [64, 128, 256], GestureSender.allCases)
    func gestureToSoundIsFiveMillisecondsAtSixtyFourFramePeriods(period: Int, sender: GestureSender) throws {
        // Each event is judged on its own, so the undisturbed events of up to twelve runs (each a fresh server and
        // process) are pooled: in the full suite on 2 cores, a run at 64 frames often keeps fewer than 16, and with
        // the suite beside two other builds (load average 7–8) six runs kept 1 (a quiet run keeps all 16 at once).
        // The tail (worst ≤ median + 2 ms at 64 frames) is a quiet machine's figure: an event can be late with no
        // xrun and no run-queue wait this VM can see (interrupts count as the thread's CPU time, see
        // `tooFewUndisturbed`). When the machine's xruns outnumber ours twenty to one, a set of 16 with a late event
        // is measured again, up to three sets; a quiet machine (no xruns, or enough of ours) fails at once.
        var sets = 0
        var run: GestureRun
        repeat {
            sets += 1
            let (pooled, enough) = try Self.pooledRuns(
                runs: 12, wanted: Self.gestureEvents, count: { $0.frames.count },
                measure: { try Self.measureGestureLatency(period: period, sender: sender) },
                merge: { run, next in
                    run.frames += next.frames
                    run.disturbedEvents += next.disturbedEvents
                    run.xruns = Self.sum(run.xruns, next.xruns)
                })
            guard let pooled, enough else {
                try Self.tooFewUndisturbed("gesture latency \(sender) -p \(period): twelve runs kept \(pooled?.frames.count ?? 0) undisturbed events of \(Self.gestureEvents)",
                                           xruns: pooled?.xruns)
                return
            }
            run = pooled
            run.frames = Array(run.frames.prefix(Self.gestureEvents))
            guard period == 64 && sender != .midiIn && run.worst > run.median + 96,
                  let xruns = run.xruns, xruns.all > 0 && (xruns.ours == 0 || xruns.oursAreFew) else { break }
            if sets == 3 {
                try Self.tooFewUndisturbed("gesture latency \(sender) -p \(period): three sets of 16 each had an event over median + 2 ms; the last: \(run)",
                                           xruns: xruns)
                return
            }
            print("gesture → sound: a late event on a disturbed machine, set \(sets) of 3, measured again: \(run)")
        } while true
        print("gesture → sound: \(run)")
        #expect(run.frames.count == Self.gestureEvents && run.frames.allSatisfy { $0 > 0 }, "\(run)\n\(run.output)")
        let delay = sender == .midiIn ? 0 : JACKInputClock.Delay.standard.frames(period: period)
        if sender != .midiIn {
            #expect(run.printedInputToSound == delay + 48, "input delay + the live limiter's 48 frames: \(run)")
        }
        #expect(run.median <= delay + 48 + period + 48, "\(run)")
        if period == 64 && sender != .midiIn {
            #expect(run.median <= 240, "median ≤ 5 ms: \(run)")
            #expect(run.worst <= run.median + 96, "worst ≤ median + 2 ms: \(run)")
        }
    }
}
