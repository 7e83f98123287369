import Ariel
import Enobarbus
import Foundation
import Glibc
import HiSynth
import ProsperoJACK
import ProsperoTestSupport
import Synchronization
import Testing

/// `prospero studio --audio jack` against the live core's promises, with Hecate selected over the
/// studio's WebSocket as a page selects it: the studio's Hecate is the live adapter `prospero hecate`
/// drives, so it follows the same MIDI clock and plays Wekinator's outputs (docs/live-parity.md); its
/// latency beside the command's is a figure of `prospero-jack-bench gesture` (docs/benchmarks.md). Each test
/// has its command-line twin (the clock tests of this suite, `hecateWekinatorOutputsPlayIt` here).
extension JACKClientTests {
    /// A studio on a test server: its log, its HTTP port (printed), and a page's socket once selected.
    final class StudioRun: @unchecked Sendable {
        let prospero: ProsperoOnJACK
        let settingsURL: URL
        let oscPort: Int
        private(set) var socket: RawClient?

        /// - Parameter hecate: the settings file's Hecate section (JSON members).
        init(server: JACKTestServer, client: String, oscPort: Int, extra: [String] = [], hecate: String = "") throws {
            self.oscPort = oscPort
            settingsURL = FileManager.default.temporaryDirectory.appendingPathComponent("studio-\(server.name)-\(client)-settings.json")
            try Data(#"{"version": 1, "hecate": {\#(hecate)}}"#.utf8).write(to: settingsURL)
            do {
                prospero = try ProsperoOnJACK(
                    ["studio", "--audio", "jack", "--port", "0", "--osc-port", "\(oscPort)", "--no-qr",
                     "--settings", settingsURL.path, "--client-name", client, "--no-connect-audio"] + extra,
                    server: server, log: "studio-\(client)")
            } catch {
                try? FileManager.default.removeItem(at: settingsURL)
                throw error
            }
        }

        var output: String { prospero.output }

        /// Waits for the studio to serve and play, then selects `instrument` as a page does (the
        /// page's socket subscribes to `subscribe` and stays open).
        func select(_ instrument: String, subscribe: String = #"["state","frames"]"#, sets: [(String, String)] = []) throws {
            try prospero.waitForLine(containing: "Ctrl-C to stop")
            socket = try StudioPage.selecting(instrument, output: output, subscribe: subscribe, sets: sets).socket
        }

        /// SIGINT, then the exit status.
        func stop() throws -> Int32 { try prospero.stop() }

        deinit { try? FileManager.default.removeItem(at: settingsURL) }
    }

    /// A live Hecate the Wekinator test plays: its JACK client name, its arguments (given its UDP input port and the
    /// probe's MIDI input) without --client-name, and what runs once it reported its latency (the studio selects
    /// Hecate as a page does; what it returns lives until the run ends).
    struct HecateSubject {
        var client: String
        var arguments: (_ udpPort: Int, _ probeMIDI: String) -> [String]
        var prepare: (_ output: () -> String) throws -> AnyObject? = { _ in nil }
    }

    /// The studio's Hecate, selected over its socket, its reverb off.
    static var studioHecate: HecateSubject {
        HecateSubject(
        client: "LatencyStudio",
        arguments: { port, _ in
            ["studio", "--audio", "jack", "--port", "0", "--osc-port", "\(port)", "--no-qr", "--no-connect-audio", "--no-settings"]
        },
        prepare: { output in try StudioPage.selecting("hecate", output: output(), sets: [("hecate.reverb", "0")]) })
    }

    /// `prospero hecate`, its reverb off.
    static var cliHecate: HecateSubject {
        HecateSubject(
        client: "LatencyHecate",
        arguments: { port, _ in ["hecate", "--no-connect-audio", "--no-settings", "--reverb-mix", "0", "--port", "\(port)"] })
    }

    /// A page's socket on a running studio with `instrument` selected (the studio's log names its port).
    final class StudioPage {
        let socket: RawClient
        init(socket: RawClient) { self.socket = socket }

        /// - Parameter sets: controls the page sets once selected (path, JSON value).
        static func selecting(_ instrument: String, output: String, subscribe: String = #"["state"]"#,
                              sets: [(String, String)] = []) throws -> StudioPage {
            guard let r = output.range(of: "studio: http://127.0.0.1:"), let port = Int(output[r.upperBound...].prefix { $0.isNumber })
            else { throw RawClient.Failure("no studio URL in its output: \(output)") }
            let client = try RawClient(port: port)
            let response = try client.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)")
            guard response.status == 101 else { throw RawClient.Failure("upgrade answered \(response.status)") }
            client.sendText(#"{"type":"hello","client":null,"subscribe":\#(subscribe)}"#)
            guard client.readJSON(until: { $0["type"] as? String == "welcome" }) != nil else { throw RawClient.Failure("no welcome") }
            client.sendText(#"{"type":"select","instrument":"\#(instrument)"}"#)
            guard client.readJSON(until: { $0["type"] as? String == "state" && $0["instrument"] as? String == instrument }) != nil
            else { throw RawClient.Failure("no state of \(instrument)") }
            for (path, value) in sets {
                client.sendText(#"{"type":"set","path":"\#(path)","value":\#(value)}"#)
                guard client.readJSON(until: { $0["type"] as? String == "changed" || $0["type"] as? String == "error" })?["type"] as? String == "changed"
                else { throw RawClient.Failure("\(path) = \(value) was refused") }
            }
            return StudioPage(socket: client)
        }
    }

    /// The JACK period of the studio's Wekinator runs: 256 frames.
    static let studioPeriod = 256

    /// The studio's Hecate follows 132 BPM MIDI clock on its midi_in, and the studio's hands (the adapter
    /// `prospero hands` drives, which announces the tempo) show it: the page's live frames carry the tempo.
    /// HiSynth's rack (the adapter of `prospero hisynth play`) follows it with its song: the Start plays the
    /// loaded song, at the scale that makes the song's own tempo 132 BPM.
    @Test(.enabled(if: liveStopRunnable), arguments: ["hecate", "hands", "hisynth"])
    func studioInstrumentFollowsMIDIClock(instrument: String) throws {
        let framesPerClock = 48_000.0 * 60 / (132 * 24)
        var script = [TimedMIDI(frame: 0, bytes: [0xFA])]
        for k in 1...110 { script.append(TimedMIDI(frame: Int((Double(k) * framesPerClock).rounded()), bytes: [0xF8])) }
        let server = try JACKTestServer()
        let sender = try JACKClient(configuration: server.configuration(client: "clock"))
        let clock = ScriptedMIDIHandler(script: script)
        try sender.activate(handler: clock)
        defer { sender.close() }
        let studio = try StudioRun(server: server, client: "ClockStudio", oscPort: Self.freePort,
                                   extra: ["--midi-in", sender.ports.midiOutput])
        try studio.select(instrument)
        try waitUntil("the clock connection") {
            sender.portInfo(named: "ClockStudio:midi_in").map { !$0.connections.isEmpty } ?? false
        }
        // The studio's first periods with the instrument selected (its start-up work) pass first.
        let periods = sender.statistics.periods
        try waitUntil("the studio's first periods") { sender.statistics.periods >= periods + 50 }
        clock.armed.store(true, ordering: .releasing)
        // The HUD's frames, from the Start on, until one shows the tempo settled while the clock plays (each read
        // waits at most the socket's timeout).
        var tempo: Double?
        var player: [String: Any]?
        let reading = ContinuousClock.now + generousWait
        while ContinuousClock.now < reading, let message = studio.socket?.readJSON(until: { $0["type"] as? String == "frame" }) {
            guard let frame = message["frame"] as? [String: Any], let bpm = frame["clockBPM"] as? Double else { continue }
            tempo = bpm
            player = frame["player"] as? [String: Any]
            // HiSynth's song glides to its tempo (50 ms): the frames until one shows it there.
            if abs(bpm - 132) < 0.05 && (instrument != "hisynth" || Self.hiSynthSongFollows(132, player)) { break }
        }
        let run = (tempo: tempo, player: player, status: try studio.stop(), output: studio.output)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.tempo.map { abs($0 - 132) < 0.05 } ?? false, "followed \(String(describing: run.tempo)): \(run.output)")
        if instrument == "hisynth" {
            // The rack's first song, slaved: playing since the Start, at 132 BPM over its own tempo where it is.
            let player = try #require(run.player, "\(run.output)")
            #expect(player["playing"] as? Bool == true && player["song"] as? Double == 0, "\(player)")
            #expect(Self.hiSynthSongFollows(132, player), "\(player)")
        }
    }

    /// The rack's first song plays (a frame's `player`) at the scale that makes its own tempo where it is `bpm`.
    static func hiSynthSongFollows(_ bpm: Double, _ player: [String: Any]?) -> Bool {
        guard let player, player["playing"] as? Bool == true, let position = player["position"] as? Double,
              let scale = player["tempo"] as? Double else { return false }
        let map = MIDITempoMap(file: HiSynthSongBook.all[0].song.file)
        guard let own = map.bpm(atTick: Int(map.tick(atSeconds: position))) else { return false }
        return abs(scale - bpm / own) < 0.002
    }

    /// Wekinator's outputs play Hecate from silence, in the studio and with `prospero hecate`: the first
    /// output vector (eyebrows raised: the 3rd) sounds at out_left with no face in view.
    @Test(.enabled(if: liveStopRunnable))
    func wekinatorOutputsPlayHecateInTheStudioAndTheCLI() throws {
        for subject in [Self.studioHecate, Self.cliHecate] {
            let server = try JACKTestServer(period: Self.studioPeriod)
            let probe = try LatencyProbe(serverName: server.name, onsetLevel: 1e-3, quietLevel: 1e-4)
            defer { probe.close() }
            let port = Self.freePort
            let prospero = try ProsperoOnJACK(subject.arguments(port, probe.midiInput) + ["--client-name", subject.client],
                                              server: server, log: "wekinator")
            try prospero.waitForLine(containing: "input → sound")
            func output() -> String { prospero.output }
            try waitUntil("out_left to connect to the probe") { probe.connect("\(subject.client):out_left", to: probe.audioInput) }
            let page = try subject.prepare(output)
            defer { withExtendedLifetime(page) {} }
            try waitUntil("silence") { probe.quiet.load(ordering: .relaxed) }
            let before = probe.onsetCount.load(ordering: .acquiring)
            let sender = try UDPTestSender()
            for _ in 0..<10 {
                sender.send(SenderTestPackets.wekinatorOutputs([0, 1]), port: port)
                usleep(20_000)
            }
            try waitUntil("\(subject.client): Wekinator's face to sound") {
                probe.onsetCount.load(ordering: .acquiring) > before
            }
            #expect(try prospero.stop() == 0, "\(output())")
        }
    }
}
