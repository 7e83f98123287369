import Enobarbus
import Foundation
import Glibc
import Synchronization
import ProsperoJACK
import ProsperoTestSupport
import Testing

/// Hecate's face plays another synth: `prospero hecate --midi` fed the recorded face performance
/// (examples/face-performance.jsonl) over UDP, with `jack_midi_dump` on `midi_out`. Part of the
/// serialized JACK suite (one server per test, stopped by pid).
extension JACKClientTests {
    /// One recorded face frame as the native sender's bundle: the six blendshapes the recording moves
    /// (zeros included, so every frame sets them all) and the head in degrees.
    static func faceBundle(_ face: FaceFrame) -> [UInt8] {
        var pairs: [OSCArgument] = []
        for name in ["jawOpen", "browInnerUp", "cheekPuff", "mouthPucker", "mouthSmileLeft", "mouthSmileRight"] {
            pairs += [.string(name), .float32(face.blendshapes[ARKitBlendshape(normalisedName: name)!])]
        }
        let blend = try! OSCEncoder.encode(OSCMessage("/prospero/face/blend", pairs))
        let head = try! OSCEncoder.encode(OSCMessage("/prospero/face/head", [
            .float32(face.head.yaw), .float32(face.head.pitch), .float32(face.head.roll)]))
        return SenderTestPackets.bundle([blend, head])
    }

    /// One run of the performance into `prospero hecate --midi`: the command's run and what the dump printed.
    struct FaceMIDIRun {
        var run: LiveRun
        var printed: String
    }

    static func playFacePerformanceIntoMidiDump(_ frames: [FaceFrame]) throws -> FaceMIDIRun {
        let server = try JACKTestServer(period: 1024)
        let probe = try JACKClient(configuration: server.configuration(client: "probe"))
        defer { probe.close() }
        let dump = try server.peer("jack_midi_dump", ["-a", "facedump"])
        let reader = DumpReader(dump)
        try waitUntil("facedump:input") { probe.portInfo(named: "facedump:input") != nil }
        let port = Self.freePort
        let sender = try UDPTestSender()
        let run = try Self.runLive(["hecate", "--client-name", "FaceMIDI", "--no-connect-audio", "--port", "\(port)",
                                    "--no-settings", "--midi-channel", "2", "--midi-out", "facedump:input"],
                                   server: server.name, mode: .file, signal: SIGINT, ready: "playback latency") {
            let start = ContinuousClock.now
            let first = frames[0].timestamp
            for face in frames {
                let due = start + .microseconds(Int64((face.timestamp - first) / 4 * 1_000_000))
                let wait = due - ContinuousClock.now
                if wait > .zero { usleep(UInt32(wait / .microseconds(1))) }
                sender.send(Self.faceBundle(face), port: port)
            }
            usleep(300_000)  // the last frames reach midi_out
        }
        // jack_midi_dump prints from its own loop, which a busy machine holds back: read once the stop's CC 123 is there.
        _ = try? waitUntil("CC 123 at the dump") { parseDump(reader.current()).contains { $0.bytes == [0xB1, 123, 0] } }
        return FaceMIDIRun(run: run, printed: reader.stop())
    }

    /// The whole performance at 4× speed (10 s; its 1.5 s without a face stays longer than Hecate's 0.25 s
    /// timeout): the chord's pitches and the bass start as notes on channel 2, the sculpting arrives as the
    /// documented controllers, the face lost sends the expression to 0 and ends every note; SIGINT with the
    /// root still sounding ends it too (and CC 123), and the command exits 0. The frames are sent at their times;
    /// what is judged is what they play (which notes, in which order, which controllers), not when.
    @Test(.enabled(if: liveStopRunnable && Peers.runnable("jack_midi_dump")))
    func hecateFacePerformancePlaysMIDIIntoMidiDump() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.repository.appendingPathComponent("examples/face-performance.jsonl"))))
        let frames: [FaceFrame] = recording.frames.compactMap { if case .face(let f) = $0 { f } else { nil } }
        try #require(frames.count > 1000)
        let result = try Self.playFacePerformanceIntoMidiDump(frames)
        let run = result.run, printed = result.printed
        Self.expectCleanStop(run, "hecate --midi", signal: SIGINT)
        #expect(run.output.contains("MIDI out on FaceMIDI:midi_out channel 2"), "\(run.output)")
        let received = Self.parseDump(printed).map(\.bytes).filter { $0.count == 3 }
        // Channel 2 only.
        #expect(received.allSatisfy { $0[0] & 0x0F == 1 }, "\(received.prefix(20))")
        // C major, chord I: root C3, third E3, fifth G3, seventh B3, octave C4, ninth D4, and the bass C2.
        let noteOns = received.filter { $0[0] == 0x91 && $0[2] > 0 }
        #expect(Set(noteOns.map { Int($0[1]) }) == [48, 52, 55, 59, 60, 62, 36], "\(noteOns)")
        // Every note-on is followed by its note-off (in order, per note), and All Notes Off closes the take.
        var sounding: [UInt8: Int] = [:]
        for m in received {
            if m[0] == 0x91 && m[2] > 0 {
                #expect(sounding[m[1], default: 0] == 0, "note \(m[1]) on twice; the first messages \(received.prefix(12)); \(run.output.suffix(400))")
                sounding[m[1], default: 0] += 1
            } else if m[0] == 0x81 || (m[0] == 0x91 && m[2] == 0) {
                sounding[m[1], default: 0] -= 1
            }
        }
        #expect(sounding.values.allSatisfy { $0 <= 0 }, "still sounding after the stop: \(sounding.filter { $0.value > 0 })")
        #expect(received.last == [0xB1, 123, 0], "\(received.suffix(5))")
        // The sculpting: every controller of the map; the head turn opens the cutoff, the face lost and found
        // moves the expression through 0 and back to 127.
        let controllers = received.filter { $0[0] == 0xB1 }
        for number in [74, 71, 75, 76, 77, 11, 91, 92] {
            #expect(controllers.contains { Int($0[1]) == number }, "CC \(number) missing")
        }
        // (At 4× speed the 22° turns pass in a quarter of a second, so the smoothed cutoff opens less than offline.)
        let cutoff = controllers.filter { $0[1] == 74 }.map { Int($0[2]) }
        #expect((cutoff.max() ?? 0) >= 64, "\(cutoff)")
        let expression = controllers.filter { $0[1] == 11 }.map { Int($0[2]) }
        if let lost = expression.firstIndex(of: 0) {
            #expect(expression[lost...].contains(127), "\(expression)")
        } else {
            Issue.record("the expression never reached 0 (face lost): \(expression)")
        }
        // The root sounded before the stop: its note-off is the stop's.
        #expect(received.dropLast().last.map { $0[0] == 0x81 && $0[1] == 48 } == true, "\(received.suffix(5))")
    }

    /// What a `jack_midi_dump` peer prints, read as it comes (thousands of lines would fill the pipe and
    /// block the dump, which then loses events).
    final class DumpReader: @unchecked Sendable {
        private let peer: PeerProcess
        private let text = Mutex(Data())

        init(_ peer: PeerProcess) {
            self.peer = peer
            // Weak: a test that throws before `stop()` lets the reader go while the dump may still print (an unowned
            // reference here crashed the whole JACK test process once).
            peer.output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                self?.text.withLock { $0.append(data) }
            }
        }

        deinit { peer.output.fileHandleForReading.readabilityHandler = nil }

        /// What the dump printed so far (it flushes each line), the dump still running.
        func current() -> String { String(decoding: text.withLock { $0 }, as: UTF8.self) }

        /// Stops the dump (SIGINT: it prints what it holds) and returns everything it printed.
        func stop() -> String {
            peer.stop()
            peer.output.fileHandleForReading.readabilityHandler = nil
            let rest = peer.output.fileHandleForReading.readDataToEndOfFile()
            return String(decoding: text.withLock { $0 + rest }, as: UTF8.self)
        }
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

extension JACKClientTests {
    /// One studio run for the test below: what the dump printed (3-byte messages), the studio's log and exit status.
    struct StudioFaceMIDIRun {
        var received: [[UInt8]]
        var output: String
        var status: Int32
    }

    static func playFaceIntoStudioHecate(_ frames: [FaceFrame]) throws -> StudioFaceMIDIRun {
        let server = try JACKTestServer(period: 1024)
        let probe = try JACKClient(configuration: server.configuration(client: "probe"))
        defer { probe.close() }
        let dump = try server.peer("jack_midi_dump", ["-a", "studiodump"])
        let reader = DumpReader(dump)
        try waitUntil("studiodump:input") { probe.portInfo(named: "studiodump:input") != nil }
        let port = Self.freePort
        let studio = try StudioRun(server: server, client: "StudioFaceMIDI", oscPort: port,
                                   extra: ["--hecate-midi", "--hecate-midi-channel", "3", "--midi-out", "studiodump:input"])
        try studio.select("hecate")
        let sender = try UDPTestSender()
        func play(_ frames: ArraySlice<FaceFrame>) {
            let start = ContinuousClock.now
            let first = frames.first!.timestamp
            for face in frames {
                let due = start + .microseconds(Int64((face.timestamp - first) / 4 * 1_000_000))
                let wait = due - ContinuousClock.now
                if wait > .zero { usleep(UInt32(wait / .microseconds(1))) }
                sender.send(Self.faceBundle(face), port: port)
            }
        }
        /// The notes the dump printed note-ons of, after the first `skip` All Notes Off.
        func notesPlayed(after skip: Int) -> Set<Int> {
            var allNotesOff = 0
            var notes: Set<Int> = []
            for m in Self.parseDump(reader.current()).map(\.bytes) where m.count == 3 {
                if m == [0xB2, 123, 0] { allNotesOff += 1 }
                else if allNotesOff >= skip && m[0] == 0x92 && m[2] > 0 { notes.insert(Int(m[1])) }
            }
            return notes
        }
        play(frames[...])
        // The pucker holds the 7th and 9th (and the root, the 5th): another instrument takes over while they sound.
        _ = try? waitUntil("the pucker's notes at the dump") { notesPlayed(after: 0).isSuperset(of: [59, 62]) }
        let socket = try #require(studio.socket)
        socket.sendText(#"{"type":"select","instrument":"hands"}"#)
        _ = socket.readJSON(until: { $0["type"] as? String == "state" && $0["instrument"] as? String == "hands" })
        _ = try? waitUntil("the switch's All Notes Off at the dump") {
            Self.parseDump(reader.current()).contains { $0.bytes == [0xB2, 123, 0] }
        }
        socket.sendText(#"{"type":"select","instrument":"hecate"}"#)
        _ = socket.readJSON(until: { $0["type"] as? String == "state" && $0["instrument"] as? String == "hecate" })
        play(frames.suffix(60))
        _ = try? waitUntil("the pucker anew at the dump") { notesPlayed(after: 1).isSuperset(of: [48, 59, 62]) }
        let status = try studio.stop()
        // jack_midi_dump prints from its own loop, which a busy machine holds back: read once the stop's CC 123 is there
        // (the second, after the switch's).
        _ = try? waitUntil("the stop's CC 123 at the dump") {
            parseDump(reader.current()).filter { $0.bytes == [0xB2, 123, 0] }.count >= 2
        }
        let received = Self.parseDump(reader.stop()).map(\.bytes).filter { $0.count == 3 }
        return StudioFaceMIDIRun(received: received, output: studio.output, status: status)
    }

    /// The studio's Hecate with `--hecate-midi`: the same face performance (its first 19 s, at 4× speed)
    /// over the studio's OSC input plays notes on `midi_out` (channel 3); choosing another instrument ends
    /// every note Hecate left sounding there (and CC 123), and Hecate chosen again starts afresh.
    @Test(.enabled(if: liveStopRunnable && Peers.runnable("jack_midi_dump")))
    func studioHecatePlaysMIDIAndEndsItsNotesWhenAnotherInstrumentIsChosen() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.repository.appendingPathComponent("examples/face-performance.jsonl"))))
        let frames: [FaceFrame] = recording.frames.compactMap { if case .face(let f) = $0, f.timestamp < 19 { f } else { nil } }
        let run = try Self.playFaceIntoStudioHecate(frames)
        #expect(run.status == 0, "\(run.output)")
        let received = run.received
        #expect(received.allSatisfy { $0[0] & 0x0F == 2 }, "\(received.prefix(20))")
        let noteOns = received.filter { $0[0] == 0x92 && $0[2] > 0 }
        #expect(Set(noteOns.map { Int($0[1]) }).isSuperset(of: [48, 55, 36, 52, 59, 62]), "\(noteOns)")
        // What reached the dump up to the switch: up to its All Notes Off (Hecate's MIDI out never sends one itself).
        let atSwitch = Array(received.prefix { $0 != [0xB2, 123, 0] }) + (received.contains([0xB2, 123, 0]) ? [[0xB2, 123, 0]] : [])
        func sounding(_ messages: [[UInt8]]) -> [UInt8: Int] {
            var count: [UInt8: Int] = [:]
            for m in messages {
                if m[0] == 0x92 && m[2] > 0 { count[m[1], default: 0] += 1 }
                else if m[0] == 0x82 || (m[0] == 0x92 && m[2] == 0) { count[m[1], default: 0] -= 1 }
            }
            return count.filter { $0.value != 0 }
        }
        // At the switch: nothing left sounding, then All Notes Off.
        #expect(atSwitch.last == [0xB2, 123, 0], "\(atSwitch.suffix(8))")
        #expect(sounding(atSwitch).isEmpty, "\(sounding(atSwitch))")
        // Chosen again, the held pucker sounds anew (root, 7th, 9th), and the stop ends it.
        let after = received.dropFirst(atSwitch.count)
        #expect(Set(after.filter { $0[0] == 0x92 && $0[2] > 0 }.map { Int($0[1]) }).isSuperset(of: [48, 59, 62]), "\(after)")
        #expect(sounding(received).isEmpty && received.last == [0xB2, 123, 0], "\(received.suffix(8))")
    }
}
