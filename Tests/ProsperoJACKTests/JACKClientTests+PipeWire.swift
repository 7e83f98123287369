import Ariel
import Enobarbus
import Foundation
import Glibc
import ProsperoTestSupport
import Synchronization
import Testing

/// The live commands under `pw-jack` against a private PipeWire (``PipeWireTestSession``: its own bus,
/// PipeWire, WirePlumber and a null sink), as most Linux desktops run them: sound is read back at the
/// sink's monitor ports, MIDI at a second client. Everything PipeWire-JACK runs in child processes: libjack
/// keeps per-process globals, and this process's own clients belong to the dummy jackd tests. Nested in the
/// serialized JACK suite, so no jackd test runs beside it.
extension JACKClientTests {
    @Suite("PipeWire", .serialized, .ownThread)
    struct PipeWireTests {
        static var runnable: Bool {
            TestPeers.enabled(PipeWireTestSession.available && Peers.path(of: "jack_rec") != nil && JACKClientTests.prospero != nil)
        }

        /// A child's log so far.
        static func text(_ log: URL) -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// Waits until `log` contains `ready` (the child still running).
        static func waitForLine(_ ready: String, in child: (process: Process, log: URL), _ what: String) throws {
            try waitUntil("'\(ready)' from \(what)") { text(child.log).contains(ready) || !child.process.isRunning }
            try #require(child.process.isRunning, "\(what) ended early: \(text(child.log))")
        }

        /// Records the sink's two monitor ports for `seconds`.
        static func recordMonitor(_ pipewire: PipeWireTestSession, seconds: Int) throws -> WAVAudio {
            try pipewire.record(seconds: seconds)
        }

        /// Sends SIGINT (or `signal`) and expects a clean exit 0 (within a bound for a busy machine).
        static func expectCleanStop(_ child: (process: Process, log: URL), _ what: String, signal: Int32 = SIGINT,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
            kill(child.process.processIdentifier, signal)
            let stopped = (try? waitUntil("\(what) to stop") { !child.process.isRunning }) != nil
            #expect(stopped, "\(what) still runs \(generousWait) after signal \(signal)", sourceLocation: sourceLocation)
            PipeWireTestSession.stop(child.process, signal: SIGKILL)
            #expect(child.process.terminationReason == .exit && child.process.terminationStatus == 0,
                    "\(what): \(text(child.log))", sourceLocation: sourceLocation)
        }

        /// Waits (bounded) until the dump's log holds a message that `matches`: the dump prints from its own loop,
        /// which a busy machine holds back. When the wait ends without one, the test fails on what the log holds.
        static func waitForDump(_ dump: (process: Process, log: URL), _ what: String, _ matches: @escaping ([UInt8]) -> Bool) {
            _ = try? waitUntil(what) { JACKClientTests.parseDump(text(dump.log)).contains { matches($0.bytes) } }
        }

        static func isA4NoteOn(_ m: [UInt8]) -> Bool { m.count == 3 && m[0] & 0xF0 == 0x90 && m[1] == 69 && m[2] > 0 }
        static func isAllNotesOff(_ m: [UInt8]) -> Bool { m.count == 3 && m[0] & 0xF0 == 0xB0 && m[1] == 123 }

        /// The longest stretch of sound above 0.1 in `samples` (5 ms windows).
        static func longestSound(_ samples: [Float]) -> Range<Int> {
            let window = 240
            var best = 0..<0, runStart: Int?
            for w in 0...(samples.count / window) {
                let range = (w * window)..<min(samples.count, (w + 1) * window)
                let loud = !range.isEmpty && samples[range].contains { abs($0) > 0.1 }
                if loud, runStart == nil { runStart = range.lowerBound }
                if !loud, let s = runStart {
                    if range.lowerBound - s > best.count { best = s..<range.lowerBound }
                    runStart = nil
                }
            }
            if let s = runStart, samples.count - s > best.count { best = s..<samples.count }
            return best
        }

        /// `pw-jack prospero play`: jack_midiseq plays A4 into its midi_in, and the sink's monitor carries a
        /// 440 Hz sine at the synth's voice level (the outputs went to the sink, PipeWire's physical playback).
        @Test(.enabled(if: runnable))
        func playSoundsMIDIAtTheSinksMonitor() throws {
            let prospero = try TestPeers.require(JACKClientTests.prospero, "the prospero executable (swift build)")
            let pipewire = try PipeWireTestSession()
            defer { pipewire.stop() }
            let sequencer = try pipewire.start("jack_midiseq", ["seq", "48000", "0", "69", "40000"])
            defer { PipeWireTestSession.stop(sequencer.process) }
            try waitUntil("seq:out in PipeWire-JACK") {
                (try? pipewire.run("jack_lsp", [], timeout: 10))?.output.contains("seq:out") == true
            }
            let play = try pipewire.start(prospero.path, ["play", "--client-name", "PWPlay", "--waveform", "sine", "--mono",
                                                          "--velocity-sensitivity", "0", "--attack", "0.002", "--sustain", "1",
                                                          "--release", "0.01", "--midi-in", "seq:out"])
            defer { PipeWireTestSession.stop(play.process, signal: SIGKILL) }
            try Self.waitForLine("playback latency", in: play, "pw-jack prospero play")
            let connections = try pipewire.run("jack_lsp", ["-c"], timeout: 10).output
            #expect(connections.contains("PWPlay:out_left\n   \(pipewire.sink.playback[0])"), "\(connections)")
            let audio = try Self.recordMonitor(pipewire, seconds: 3)
            Self.expectCleanStop(play, "play")
            #expect(audio.sampleRate == 48_000)
            let left = audio.channels[0]
            #expect(audio.channels[1] == left, "mono: both channels equal")
            let best = Self.longestSound(left)
            try #require(best.count > 30_000, "longest note \(best.count) frames: \(Self.text(play.log))")
            let samples = Array(left[(best.lowerBound + 2_400)..<(best.upperBound - 2_400)])
            let measured = SignalMeasure.frequency(of: samples, sampleRate: 48_000)
            #expect(abs(measured - 440) < 0.05, "\(measured) Hz")
            let peakDB = SignalMeasure.sinePeakDBFS(samples)
            #expect(abs(peakDB - 20 * log10(Double(PolySynth.voiceLevel))) < 0.1, "\(peakDB) dBFS")
        }

        /// Whether the face sender thread goes on.
        final class Sending: Sendable { let on = Atomic<Bool>(true) }

        /// `jack_midi_dump` as PipeWire-JACK client `name`, returned once its `name:input` port is listed.
        static func startMIDIDump(_ name: String, in pipewire: PipeWireTestSession) throws -> (process: Process, log: URL) {
            let dump = try pipewire.start("jack_midi_dump", ["-a", name])
            do {
                try waitUntil("\(name):input in PipeWire-JACK") {
                    (try? pipewire.run("jack_lsp", [], timeout: 10))?.output.contains("\(name):input") == true
                }
            } catch {
                PipeWireTestSession.stop(dump.process)
                throw error
            }
            return dump
        }

        /// The state PipeWire gives the link from node `output` to node `input` (`pw-dump`: "negotiating",
        /// "active" …), or nil when there is none.
        static func linkState(from output: String, to input: String, in pipewire: PipeWireTestSession) -> String? {
            guard let dumped = try? pipewire.run("pw-dump", [], timeout: 10).output,
                  let objects = try? JSONSerialization.jsonObject(with: Data(dumped.utf8)) as? [[String: Any]] else { return nil }
            func info(_ o: [String: Any]) -> [String: Any] { o["info"] as? [String: Any] ?? [:] }
            let nodes = Dictionary(objects.compactMap { o -> (Int, String)? in
                guard (o["type"] as? String)?.hasSuffix("Node") == true, let id = o["id"] as? Int,
                      let name = (info(o)["props"] as? [String: Any])?["node.name"] as? String else { return nil }
                return (id, name)
            }, uniquingKeysWith: { a, _ in a })
            let link = objects.first { o in
                guard (o["type"] as? String)?.hasSuffix("Link") == true else { return false }
                let i = info(o)
                return (i["output-node-id"] as? Int).flatMap { nodes[$0] } == output && (i["input-node-id"] as? Int).flatMap { nodes[$0] } == input
            }
            return link.flatMap { info($0)["state"] as? String }
        }

        /// One native face frame: the blendshapes and the head in one bundle.
        static func face(jaw: Float, smile: Float) -> [UInt8] {
            let blend = try! OSCEncoder.encode(OSCMessage("/prospero/face/blend", [
                .string("jawOpen"), .float32(jaw), .string("browInnerUp"), .float32(0.2),
                .string("mouthSmileLeft"), .float32(smile), .string("mouthSmileRight"), .float32(smile)]))
            let head = try! OSCEncoder.encode(OSCMessage("/prospero/face/head", [.float32(0), .float32(0), .float32(0)]))
            return SenderTestPackets.bundle([blend, head])
        }

        /// `pw-jack prospero hecate --play-along` on a sink named as PipeWire names Bluetooth earbuds: the route is
        /// read from the real sink's alias (bluetooth), so play-along's ceiling is −14 dBFS; there is no sound before
        /// a face, a face stream plays the chord (I in C: C, E and G are the strongest tones) at the sink, and
        /// SIGTERM ends it with exit 0.
        @Test(.enabled(if: runnable))
        func hecatePlaysAFaceAtTheBluetoothSink() throws {
            let prospero = try TestPeers.require(JACKClientTests.prospero, "the prospero executable (swift build)")
            let pipewire = try PipeWireTestSession(sink: .bluetooth)
            defer { pipewire.stop() }
            let port = JACKClientTests.freePort
            let hecate = try pipewire.start(prospero.path, ["hecate", "--client-name", "PWHecate", "--port", "\(port)",
                                                            "--key", "C", "--chord", "I", "--play-along", "--no-settings"])
            defer { PipeWireTestSession.stop(hecate.process, signal: SIGKILL) }
            try Self.waitForLine("playback latency", in: hecate, "pw-jack prospero hecate")
            let output = Self.text(hecate.log)
            #expect(output.contains("hecate: output route: bluetooth sink (bluez_output.14_3F_A6_28_DC_51.1:playback_"), "\(output)")
            let silent = try Self.recordMonitor(pipewire, seconds: 1)
            #expect(ProsperoTestSupport.SignalMeasure.peak(silent.channels[0]) < 3e-5, "no face, no sound (−90 dBFS)")
            let sending = Sending()
            let thread = Thread {
                guard let sender = try? UDPTestSender() else { return }
                while sending.on.load(ordering: .relaxed) {
                    _ = sender.send(Self.face(jaw: 0.6, smile: 0.3), port: port)
                    usleep(16_667)
                }
            }
            thread.start()
            usleep(1_000_000)  // the face fades in
            let audio = try Self.recordMonitor(pipewire, seconds: 2)
            sending.on.store(false, ordering: .relaxed)
            Self.expectCleanStop(hecate, "hecate", signal: SIGTERM)
            let left = audio.channels[0]
            let rms = ProsperoTestSupport.SignalMeasure.rms(left, 0..<left.count)
            #expect(rms > 0.005, "a face sounds at the sink: RMS \(rms)")
            // The Bluetooth route's play-along ceiling, −14 dBFS (true peak within 0.06 dB of it).
            let peak = ProsperoTestSupport.SignalMeasure.peak(left)
            #expect(20 * log10(Double(peak)) <= -14 + 0.06, "peak \(20 * log10(Double(peak))) dBFS over the Bluetooth ceiling")
            // The strongest tones among MIDI notes 36…96, measured at each note's frequency.
            let strengths = (36...96).map { note -> (Int, Double) in
                (note, ProsperoTestSupport.SignalMeasure.toneAmplitude(left, at: 440 * pow(2, Double(note - 69) / 12), in: 0..<left.count, sampleRate: 48_000))
            }.sorted { $0.1 > $1.1 }
            let strongest = strengths.prefix(3).map { $0.0 % 12 }
            #expect(Set(strongest).isSubset(of: [0, 4, 7]), "strongest notes \(strengths.prefix(6))")
        }

        /// `pw-jack prospero hands --output both`: a hand held at A4 sounds the built-in synth at the sink and
        /// sends its MIDI to `jack_midi_dump`, a second PipeWire-JACK client; SIGINT sends the note-off and CC 123
        /// there before the command exits 0.
        @Test(.enabled(if: runnable && Peers.runnable("jack_midi_dump")))
        func handsBothReachTheSinkAndASecondClientAndStopEndsTheNote() throws {
            let prospero = try TestPeers.require(JACKClientTests.prospero, "the prospero executable (swift build)")
            let pipewire = try PipeWireTestSession()
            defer { pipewire.stop() }
            let dump = try Self.startMIDIDump("pwdump", in: pipewire)
            defer { PipeWireTestSession.stop(dump.process) }
            let port = JACKClientTests.freePort
            let hands = try pipewire.start(prospero.path, ["hands", "--output", "both", "--client-name", "PWHands", "--port", "\(port)",
                                                           "--timeout", "10", "--midi-out", "pwdump:input", "--no-settings"])
            defer { PipeWireTestSession.stop(hands.process, signal: SIGKILL) }
            try Self.waitForLine("playback latency", in: hands, "pw-jack prospero hands")
            let sender = try UDPTestSender()
            for _ in 0..<3 {
                _ = sender.send(JACKClientTests.handMessage(height: 9.5 / 11), port: port)
                usleep(30_000)
            }
            // Recorded once the note sounds (its note-on reached the dump).
            Self.waitForDump(dump, "A4 at pwdump", Self.isA4NoteOn)
            let audio = try Self.recordMonitor(pipewire, seconds: 1)
            Self.expectCleanStop(hands, "hands")
            Self.waitForDump(dump, "CC 123 at pwdump", Self.isAllNotesOff)
            PipeWireTestSession.stop(dump.process)
            let left = audio.channels[0]
            #expect(ProsperoTestSupport.SignalMeasure.rms(left, 0..<left.count) > 0.01, "the built-in synth sounds at the sink: \(Self.text(hands.log))")
            let received = JACKClientTests.parseDump(Self.text(dump.log)).map(\.bytes)
            let noteOn = received.firstIndex { $0.count == 3 && $0[0] & 0xF0 == 0x90 && $0[1] == 69 && $0[2] > 0 }
            let noteOff = received.lastIndex { $0.count == 3 && ($0[0] & 0xF0 == 0x80 || ($0[0] & 0xF0 == 0x90 && $0[2] == 0)) && $0[1] == 69 }
            let allNotesOff = received.lastIndex { $0.count == 3 && $0[0] & 0xF0 == 0xB0 && $0[1] == 123 }
            #expect(noteOn != nil, "\(received)\n\(Self.text(hands.log))")
            if let noteOn, let noteOff, let allNotesOff {
                #expect(noteOff > noteOn && allNotesOff > noteOn, "\(received)")
            } else {
                Issue.record("no note-off or CC 123 at the dump: \(received)")
            }
        }

        /// `pw-jack prospero hands` sending MIDI to a client that answers late (`jack_midi_dump` stopped until
        /// hands has asked for the link): PipeWire's JACK completes a link only when both clients have answered,
        /// and MIDI sent before that is lost (in CI a busy machine once lost the first note-on this way). So
        /// hands prints its ports only once the server reports the link made; the note played at once arrives.
        /// MIDI only, nothing to the sink: the dump is the one client held back. With `stopWhileWaiting`, Ctrl-C
        /// comes while hands waits for the link (the dump still stopped): hands ends at once, exit 0, without
        /// the warning that the 3 s wait would have printed.
        @Test(.enabled(if: runnable && Peers.runnable("jack_midi_dump")), arguments: [false, true])
        func handsIsReadyOnlyOnceItsLinkToALateClientCarriesMIDI(stopWhileWaiting: Bool) throws {
            let prospero = try TestPeers.require(JACKClientTests.prospero, "the prospero executable (swift build)")
            let pipewire = try PipeWireTestSession()
            defer { pipewire.stop() }
            let dump = try Self.startMIDIDump("pwlate", in: pipewire)
            defer { PipeWireTestSession.stop(dump.process) }
            // pw-jack execs, so this is the dump's own pid.
            let dumpPID = dump.process.processIdentifier
            kill(dumpPID, SIGSTOP)
            defer { kill(dumpPID, SIGCONT) }
            let port = JACKClientTests.freePort
            let hands = try pipewire.start(prospero.path, ["hands", "--output", "midi", "--no-connect-audio", "--client-name", "PWLateHands",
                                                           "--port", "\(port)", "--timeout", "10", "--midi-out", "pwlate:input", "--no-settings"])
            defer { PipeWireTestSession.stop(hands.process, signal: SIGKILL) }
            try waitUntil("PWLateHands:midi_out → pwlate:input in the graph") {
                let listed = (try? pipewire.run("jack_lsp", ["-c", "PWLateHands:midi_out"], timeout: 10))?.output ?? ""
                return listed.contains("pwlate:input")
            }
            usleep(200_000)
            // Ready before the dump answered is right only when PipeWire completed the link without it (it did once
            // beside a build: the link was then active); otherwise hands said so before its link carried MIDI.
            if Self.text(hands.log).contains("PWLateHands:midi_out →") {
                let state = Self.linkState(from: "PWLateHands", to: "pwlate", in: pipewire)
                #expect(state == "active", "ready before the link carries MIDI (link \(state ?? "not found")): \(Self.text(hands.log))")
            }
            if stopWhileWaiting {
                Self.expectCleanStop(hands, "hands stopped while it waited for the link")
                let output = Self.text(hands.log)
                #expect(output.contains("stopped by SIGINT") && !output.contains("has not confirmed"), "\(output)")
                return
            }
            kill(dumpPID, SIGCONT)
            try Self.waitForLine("PWLateHands:midi_out → pwlate:input", in: hands, "pw-jack prospero hands")
            #expect(!Self.text(hands.log).contains("has not confirmed"), "\(Self.text(hands.log))")
            let sender = try UDPTestSender()
            for _ in 0..<3 {
                _ = sender.send(JACKClientTests.handMessage(height: 9.5 / 11), port: port)
                usleep(30_000)
            }
            Self.waitForDump(dump, "A4 at pwlate", Self.isA4NoteOn)
            Self.expectCleanStop(hands, "hands")
            Self.waitForDump(dump, "CC 123 at pwlate", Self.isAllNotesOff)
            PipeWireTestSession.stop(dump.process)
            let received = JACKClientTests.parseDump(Self.text(dump.log)).map(\.bytes)
            let noteOn = received.firstIndex { $0.count == 3 && $0[0] & 0xF0 == 0x90 && $0[1] == 69 && $0[2] > 0 }
            // The hand's first frame sends CC 74 (across), CC 11 (expression) and the note-on, in that order.
            #expect(Array(received.prefix(3)) == [[0xB0, 74, 51], [0xB0, 11, 127], [0x90, 69, 127]] && noteOn == 2,
                    "the hand's first messages: \(received)\n\(Self.text(hands.log))")
            #expect(received.contains { $0.count == 3 && $0[0] & 0xF0 == 0xB0 && $0[1] == 123 }, "CC 123 at the stop: \(received)")
        }
    }
}
