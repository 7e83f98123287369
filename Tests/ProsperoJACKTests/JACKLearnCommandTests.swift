import Foundation
import HiSynth
import ProsperoJACK
import ProsperoTestSupport
import Synchronization
import Testing

// Nested in JACKClientTests: one jackd at a time in this process (see there).
extension JACKClientTests {
    /// `--learn` on the live commands (`prospero hecate`, `prospero hisynth play`) on a dummy JACK server: a second
    /// client moves CC 74 on channel 2 into the session's `midi_in`; the command prints the binding, and
    /// `--save-settings` keeps it in the settings file (XDG_CONFIG_HOME in a temporary directory).
    @Suite("prospero hecate --learn and hisynth play --learn over JACK", .serialized, .ownThread)
    struct JACKLearnCommandTests {
        /// What a learning run printed and saved.
        struct LearnRun {
            var status: Int32
            var output: String
            var error: String
            var saved: String
        }

        /// Runs `prospero ARGUMENTS` with a second client turning CC 74 on channel 2 slowly from 10 to 40 into its
        /// `midi_in` (a move: the first value alone only says where the knob is), `--save-settings` into a temporary
        /// XDG_CONFIG_HOME, and stops it with SIGINT once the knob has turned.
        static func learn(_ arguments: [String], client: String) throws -> LearnRun {
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
            process.arguments = arguments + ["-s", server.name, "--client-name", client, "--no-connect-audio",
                                             "--midi-in", sender.ports.midiOutput, "--save-settings"]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = config.path
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            try waitUntil("the knob connected to \(client):midi_in") {
                sender.portInfo(named: "\(client):midi_in").map { !$0.connections.isEmpty } ?? false
            }
            knob.armed.store(true, ordering: .releasing)
            try waitUntil("the knob's turn") { knob.scriptFinished.load(ordering: .acquiring) }
            // The last values reach the command in the next periods.
            let periods = sender.statistics.periods
            try waitUntil("four more periods") { sender.statistics.periods >= periods + 4 }
            kill(process.processIdentifier, SIGINT)
            try waitUntil("prospero \(arguments[0]) to end") { !process.isRunning }
            let saved = (try? String(contentsOf: config.appendingPathComponent("prospero/settings.json"), encoding: .utf8)) ?? ""
            return LearnRun(status: process.terminationStatus,
                            output: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                            error: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), saved: saved)
        }

        /// `prospero hisynth play --learn env.sustain`: the knob binds to the rack's sustain, keeps turning it
        /// (10…40 of 127: sustain ≈ 0.31, the preset's is 1), and `--save-settings` keeps the binding and the
        /// sound as turned (the preset string in the file's `hisynth` section), which the next run starts from.
        @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || TestPeers.prospero != nil)))
        func hisynthLearnsAKnob() throws {
            let run = try Self.learn(["hisynth", "play", "--learn", "env.sustain"], client: "LearnSynth")
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("MIDI learn: CC 74 ch 2 → hisynth.env.sustain"), "\(run.output)")
            #expect(run.saved.contains(#""control":"hisynth.env.sustain","controller":74,"max":1,"min":0,"source":"cc""#), "\(run.saved)")
            let text = try #require(run.saved.firstMatch(of: /"hisynth":\{"preset":"([^"]+)"\}/)?.1, "\(run.saved)")
            let sound = try HiSynthPreset(string: String(text))
            #expect(sound.name == HiSynthPreset.factory[0].name && abs(Double(sound.envelope.sustain) - 40.0 / 127) < 0.02,
                    "sustain \(sound.envelope.sustain) after the knob's 40 of 127")
        }

        /// `prospero hands --output synth --learn synth.release`: the knob binds to the built-in synth's release
        /// (the panel the studio's hands learn on too), and `--save-settings` keeps the binding. (The file's synth
        /// panel stays the studio's: the command's sound comes from its synth options.)
        @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || TestPeers.prospero != nil)))
        func handsLearnAKnob() throws {
            let run = try Self.learn(["hands", "--output", "synth", "--port", "\(40_000 + Int(getpid() + 11) % 20_000)",
                                      "--learn", "synth.release"], client: "LearnHands")
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("MIDI learn: CC 74 ch 2 → hands.synth.release"), "\(run.output)")
            #expect(run.saved.contains(#""control":"hands.synth.release","controller":74,"max":10,"min":0,"source":"cc""#), "\(run.saved)")
        }

        /// `prospero hecate --learn bpm`: Hecate prints the binding, and `--save-settings` keeps it in the settings
        /// file; the knob kept turning after it was learned, so the tempo followed it.
        @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || TestPeers.prospero != nil)))
        func learnsAController() throws {
            let run = try Self.learn(["hecate", "--port", "\(40_000 + Int(getpid() + 7) % 20_000)", "--learn", "bpm"], client: "LearnTest")
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("MIDI learn: move a controller on JACK midi_in for hecate.bpm"), "\(run.output)")
            #expect(run.output.contains("MIDI learn: CC 74 ch 2 → hecate.bpm"), "\(run.output)")
            #expect(run.output.contains("hecate: output route: no bluetooth"), "\(run.output)")
            #expect(run.saved.contains(#""midi":[{"channel":2,"control":"hecate.bpm","controller":74,"max":300,"min":20,"source":"cc"}]"#), "\(run.saved)")
            // 10…40 of 127 → 22…108 BPM.
            #expect(!run.saved.contains(#""bpm":90"#), "\(run.saved)")
        }
    }
}
