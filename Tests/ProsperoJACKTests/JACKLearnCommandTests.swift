import Foundation
import HiSynth
import ProsperoJACK
import ProsperoTestSupport
import Synchronization
import Testing

// Nested in JACKClientTests: one jackd at a time in this process (see there).
extension JACKClientTests {
    /// `prospero hecate --learn` live on a dummy JACK server: a second client moves CC 74 on channel 2 into
    /// the session's `midi_in`; Hecate prints the binding, and `--save-settings` keeps it in the settings
    /// file (XDG_CONFIG_HOME in a temporary directory).
    @Suite("prospero hecate --learn and hisynth play --learn over JACK", .serialized)
    struct JACKLearnCommandTests {
        /// `prospero hisynth play --learn env.sustain`: the knob binds to the rack's sustain, keeps turning it
        /// (10…40 of 127: sustain ≈ 0.31, the preset's is 1), and `--save-settings` keeps the binding and the
        /// sound as turned (the preset string in the file's `hisynth` section), which the next run starts from.
        @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || TestPeers.prospero != nil)))
        func hisynthLearnsAKnob() throws {
            guard let prospero = TestPeers.prospero else { throw PeerMissing(tool: "prospero (build the package first)") }
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-learn-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: config) }
            let script = (0..<31).map { TimedMIDI(frame: $0 * 2_400, bytes: [0xB1, 74, UInt8(10 + $0)]) }
            let server = try JACKTestServer()
            let sender = try JACKClient(configuration: server.configuration(client: "knobs"))
            let knob = ScriptedMIDIHandler(script: script)
            try sender.activate(handler: knob)
            defer { sender.close() }
            let process = Process()
            process.executableURL = prospero
            process.arguments = ["hisynth", "play", "-s", server.name, "--client-name", "LearnSynth", "--no-connect-audio",
                                 "--duration", "4", "--midi-in", sender.ports.midiOutput, "--learn", "env.sustain", "--save-settings"]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = config.path
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            try waitUntil("the knob connected to LearnSynth:midi_in", timeout: .seconds(10)) {
                sender.portInfo(named: "LearnSynth:midi_in").map { !$0.connections.isEmpty } ?? false
            }
            knob.armed.store(true, ordering: .releasing)
            try waitUntil("prospero hisynth play to end", timeout: .seconds(15)) { !process.isRunning }
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(error)")
            #expect(output.contains("MIDI learn: CC 74 ch 2 → hisynth.env.sustain"), "\(output)")
            let saved = try String(contentsOf: config.appendingPathComponent("prospero/settings.json"), encoding: .utf8)
            #expect(saved.contains(#""control":"hisynth.env.sustain","controller":74,"max":1,"min":0,"source":"cc""#), "\(saved)")
            let text = try #require(saved.firstMatch(of: /"hisynth":\{"preset":"([^"]+)"\}/)?.1, "\(saved)")
            let sound = try HiSynthPreset(string: String(text))
            #expect(sound.name == HiSynthPreset.factory[0].name && abs(Double(sound.envelope.sustain) - 40.0 / 127) < 0.02,
                    "sustain \(sound.envelope.sustain) after the knob's 40 of 127")
        }

        @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || TestPeers.prospero != nil)))
        func learnsAController() throws {
            guard let prospero = TestPeers.prospero else { throw PeerMissing(tool: "prospero (build the package first)") }
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-learn-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: config) }
            // A knob turned slowly from 10 to 40 (a move: the first value alone only says where it is).
            let script = (0..<31).map { TimedMIDI(frame: $0 * 2_400, bytes: [0xB1, 74, UInt8(10 + $0)]) }
            let server = try JACKTestServer()
            let sender = try JACKClient(configuration: server.configuration(client: "knobs"))
            let knob = ScriptedMIDIHandler(script: script)
            try sender.activate(handler: knob)
            defer { sender.close() }
            let process = Process()
            process.executableURL = prospero
            process.arguments = ["hecate", "-s", server.name, "--client-name", "LearnTest", "--no-connect-audio",
                                 "--port", "\(40_000 + Int(getpid() + 7) % 20_000)", "--duration", "4",
                                 "--midi-in", sender.ports.midiOutput, "--learn", "bpm", "--save-settings"]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = config.path
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            try waitUntil("the knob connected to LearnTest:midi_in", timeout: .seconds(10)) {
                sender.portInfo(named: "LearnTest:midi_in").map { !$0.connections.isEmpty } ?? false
            }
            knob.armed.store(true, ordering: .releasing)
            try waitUntil("prospero hecate to end", timeout: .seconds(15)) { !process.isRunning }
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(error)")
            #expect(output.contains("MIDI learn: move a controller on JACK midi_in for hecate.bpm"), "\(output)")
            #expect(output.contains("MIDI learn: CC 74 ch 2 → hecate.bpm"), "\(output)")
            #expect(output.contains("hecate: output route: no bluetooth"), "\(output)")
            let saved = try String(contentsOf: config.appendingPathComponent("prospero/settings.json"), encoding: .utf8)
            #expect(saved.contains(#""midi":[{"channel":2,"control":"hecate.bpm","controller":74,"max":300,"min":20,"source":"cc"}]"#), "\(saved)")
            // The knob kept turning after it was learned: the tempo followed it (10…40 of 127 → 22…108 BPM).
            #expect(!saved.contains(#""bpm":90"#), "\(saved)")
        }
    }
}
