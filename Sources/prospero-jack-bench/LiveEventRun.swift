import Foundation
import Glibc

/// One run of a ``LiveSubject`` on the bench's server: events sent one at a time, each from silence at any phase of
/// the period, each timed in JACK frames from its send to its sound (the playback latency JACK reports for the
/// measured ports added; the probe is their only destination) and judged by ``EventWatch``. Disturbed events are
/// kept apart with their cause; the run sends until it has `wanted` undisturbed ones or `maximumSends` sends.
struct LiveEventRun {
    struct Event {
        /// Frames from the send to the first changed sample at out_left, and to the note-on at midi_out.
        var audio: Int
        var midi: Int?
        /// Why it was disturbed; nil: it was not.
        var cause: EventWatch.Cause?
    }

    var label: String
    var period: Int
    var events: [Event] = []
    /// Events that never sounded: an xrun lost them.
    var lost = 0
    /// Xruns the server reported during the run.
    var xruns = 0
    /// "input → sound N frames" as the command printed it.
    var printedInputToSound: Int?
    /// Why the run ended before it had its events, if it did.
    var stoppedEarly: String?

    var undisturbed: [Event] { events.filter { $0.cause == nil } }
    var audio: [Int] { undisturbed.map(\.audio) }
    var midi: [Int] { undisturbed.compactMap(\.midi) }

    /// "30 of 41 (11 disturbed: CPU wait 9, xrun 2)".
    var eventsLine: String {
        let disturbed = events.count - undisturbed.count
        var line = "\(undisturbed.count) of \(events.count + lost)"
        if disturbed + lost > 0 {
            let causes = EventWatch.Cause.allCases.compactMap { cause -> String? in
                let n = events.filter { $0.cause == cause }.count
                return n > 0 ? "\(cause) \(n)" : nil
            } + (lost > 0 ? ["lost \(lost)"] : [])
            line += " (disturbed: \(causes.joined(separator: ", ")))"
        }
        return line + (stoppedEarly.map { "; stopped: \($0)" } ?? "")
    }

    /// Measures `subject` on `server`.
    static func measure(_ subject: LiveSubject, on server: BenchServer, wanted: Int, maximumSends: Int) throws -> LiveEventRun {
        let probe = try LatencyProbe(serverName: server.name, onsetLevel: subject.onsetLevel, quietLevel: subject.quietLevel)
        defer { probe.close() }
        let notes = subject.start == nil ? try MIDINoteProbe(serverName: server.name) : nil
        defer { notes?.close() }
        let port = try UDPSender.freePort()
        let sender = try UDPSender()
        let prospero = try ProsperoRun(server.prospero, subject.arguments(port, probe.midiInput) + ["--client-name", subject.client],
                                       server: server.name, log: subject.client)
        defer { prospero.stop() }
        try prospero.waitForLine(containing: "→ sound")
        try Bench.wait(for: "\(subject.client):out_left to connect to the probe", seconds: 30) {
            probe.connect("\(subject.client):out_left", to: probe.audioInput)
        }
        if let notes { try Bench.wait(for: "the notes to connect to midi_in", seconds: 30) { notes.connect(to: "\(subject.client):midi_in") } }
        let prepared = try subject.prepare(prospero)
        defer { withExtendedLifetime(prepared) {} }
        usleep(100_000)
        let audioPort = probe.playbackLatency(of: "\(subject.client):out_left") ?? 0
        let midiPort = subject.measuresMIDI ? probe.playbackLatency(of: "\(subject.client):midi_out") ?? 0 : 0

        func sendPrelude() {
            for datagram in subject.prelude { sender.send(datagram, port: port) }
        }
        /// Sends the event's start: the frame it entered at, and the frames its send was held after its stamp.
        func sendStart() throws -> (frame: UInt32, held: Int) {
            guard let datagram = subject.start else {
                let notes = notes!
                let before = notes.sentCount.load(ordering: .acquiring)
                notes.request(note: 69, velocity: 100)
                try Bench.wait(for: "the note-on to be written", seconds: 2) { notes.sentCount.load(ordering: .acquiring) > before }
                return (notes.lastSentFrame, 0)
            }
            let stamp = probe.frameTimeNow
            sender.send(datagram, port: port)
            return (stamp, LatencyProbe.frames(from: stamp, to: probe.frameTimeNow))
        }
        func sendEnd() {
            if let end = subject.end { sender.send(end, port: port) }
            notes?.request(note: 69, velocity: 0)
        }
        // One event first, not measured: an instrument's first sound after launch (Hecate's fade-in).
        sendPrelude()
        _ = try sendStart()
        usleep(300_000)
        sendEnd()

        var run = LiveEventRun(label: subject.label, period: server.period)
        let watch = EventWatch(probe: probe, pids: [prospero.process.processIdentifier, getpid()] + (server.jackdPID.map { [$0] } ?? []),
                               waitAllowance: probe.periodMicroseconds * 1_000)
        // An event is judged when the next is about to be sent (or at the end), at least 50 ms after its sound, so
        // that an xrun whose notification reached the probe late still counts against it.
        var pending: (event: Event, verdict: EventWatch.Verdict)?
        func judge() {
            guard var judged = pending else { return }
            pending = nil
            judged.event.cause = watch.judge(judged.verdict)
            run.events.append(judged.event)
        }
        var sent = 0, lostInARow = 0
        sending: while true {
            while run.undisturbed.count + (pending == nil ? 0 : 1) < wanted && sent < maximumSends {
                // An xrun can lose the last event's end in the graph, or drop the probe from it: the run stops there.
                // Without an xrun, a sound that never ends is the command's fault.
                let xrunsBefore = pending?.verdict.xrunsBefore ?? probe.xruns.load(ordering: .relaxed)
                if (try? Bench.wait(for: "silence", seconds: 5, { probe.quiet.load(ordering: .relaxed) })) == nil {
                    guard probe.xruns.load(ordering: .relaxed) == xrunsBefore else {
                        run.stoppedEarly = "the sound went on after an xrun"
                        break sending
                    }
                    throw BenchFailure("\(subject.label): the sound did not end within 5 s of the event's end, with no xrun")
                }
                usleep(50_000)  // a few periods of silence: the probe is armed
                judge()
                usleep(UInt32.random(in: 0..<UInt32(probe.periodMicroseconds)))  // any phase of the period
                if !subject.prelude.isEmpty {
                    sendPrelude()
                    usleep(UInt32(probe.periodMicroseconds))
                }
                let mark = watch.begin()
                let onsetIndex = probe.onsetCount.load(ordering: .acquiring)
                let noteIndex = probe.noteOnCount.load(ordering: .acquiring)
                let (frame, held) = try sendStart()
                sent += 1
                let sounded = (try? Bench.wait(for: "the sound", seconds: 2) {
                    probe.onsetCount.load(ordering: .acquiring) > onsetIndex
                        && (!subject.measuresMIDI || probe.noteOnCount.load(ordering: .acquiring) > noteIndex)
                }) != nil
                guard sounded else {
                    guard probe.xruns.load(ordering: .relaxed) != mark.xruns else {
                        throw BenchFailure("\(subject.label): event \(sent) made no sound within 2 s, with no xrun")
                    }
                    run.lost += 1
                    lostInARow += 1
                    sendEnd()
                    if lostInARow == 3 {
                        run.stoppedEarly = "3 events in a row lost to xruns"
                        break sending
                    }
                    continue
                }
                lostInARow = 0
                let verdict = watch.end(mark, stampToSend: held)
                let midi = subject.measuresMIDI ? LatencyProbe.frames(from: frame, to: probe.noteOn(noteIndex)) + midiPort : nil
                pending = (Event(audio: LatencyProbe.frames(from: frame, to: probe.onset(onsetIndex)) + audioPort, midi: midi), verdict)
                usleep(30_000)
                sendEnd()
            }
            usleep(300_000)
            judge()
            if run.undisturbed.count >= wanted || sent >= maximumSends { break }
        }
        run.xruns = probe.xruns.load(ordering: .relaxed)
        run.printedInputToSound = prospero.printedInputToSound
        return run
    }
}
