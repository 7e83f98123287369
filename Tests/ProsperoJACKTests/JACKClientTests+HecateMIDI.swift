import Enobarbus
import Foundation
import Glibc
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

    /// The whole performance at 4× speed (10 s; its 1.5 s without a face stays longer than Hecate's 0.25 s
    /// timeout): the chord's pitches and the bass start as notes on channel 2, the sculpting arrives as the
    /// documented controllers, the face lost sends the expression to 0 and ends every note; SIGINT with the
    /// root still sounding ends it too (and CC 123), and the command exits 0.
    @Test(.enabled(if: liveStopRunnable && Peers.runnable("jack_midi_dump")))
    func hecateFacePerformancePlaysMIDIIntoMidiDump() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.repository.appendingPathComponent("examples/face-performance.jsonl"))))
        let frames: [FaceFrame] = recording.frames.compactMap { if case .face(let f) = $0 { f } else { nil } }
        try #require(frames.count > 1000)
        let server = try JACKTestServer(period: 256)
        let probe = try JACKClient(configuration: server.configuration(client: "probe"))
        defer { probe.close() }
        let dump = try server.peer("jack_midi_dump", ["-a", "facedump"])
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
        usleep(300_000)  // jack_midi_dump prints from its own loop
        dump.stop()
        Self.expectCleanStop(run, "hecate --midi", signal: SIGINT)
        #expect(run.output.contains("MIDI out on FaceMIDI:midi_out channel 2"), "\(run.output)")
        let received = Self.parseDump(dump.readOutput()).map(\.bytes).filter { $0.count == 3 }
        // Channel 2 only.
        #expect(received.allSatisfy { $0[0] & 0x0F == 1 }, "\(received.prefix(20))")
        // C major, chord I: root C3, third E3, fifth G3, seventh B3, octave C4, ninth D4, and the bass C2.
        let noteOns = received.filter { $0[0] == 0x91 && $0[2] > 0 }
        #expect(Set(noteOns.map { Int($0[1]) }) == [48, 52, 55, 59, 60, 62, 36], "\(noteOns)")
        // Every note-on is followed by its note-off (in order, per note), and All Notes Off closes the take.
        var sounding: [UInt8: Int] = [:]
        for m in received {
            if m[0] == 0x91 && m[2] > 0 {
                #expect(sounding[m[1], default: 0] == 0, "note \(m[1]) on twice")
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
        #expect(controllers.contains { $0[1] == 74 && $0[2] >= 120 })
        let expression = controllers.filter { $0[1] == 11 }.map { Int($0[2]) }
        if let lost = expression.firstIndex(of: 0) {
            #expect(expression[lost...].contains(127), "\(expression)")
        } else {
            Issue.record("the expression never reached 0 (face lost): \(expression)")
        }
        // The root sounded before the stop: its note-off is the stop's.
        #expect(received.dropLast().last.map { $0[0] == 0x81 && $0[1] == 48 } == true, "\(received.suffix(5))")
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
