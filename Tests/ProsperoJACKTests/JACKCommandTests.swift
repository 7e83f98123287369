import Ariel
import Foundation
import Glibc
import ProsperoTestSupport
import ProsperoJACK
import Testing

/// `prospero jack status` as a user runs it, against a dummy server.
///
/// Part of the serialized JACKClientTests suite: libjack (JACK 2) keeps one set of per-process
/// globals for the server it first connects to, so a process must not hold clients of two
/// servers at once, and these tests probe their servers from this process.
extension JACKClientTests {
    /// The `prospero` executable built next to this test bundle.
    static var prospero: URL? { TestPeers.prospero }

    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        guard let prospero else { throw PeerMissing(tool: "prospero (build the package first)") }
        let process = Process()
        process.executableURL = prospero
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try waitUntil("prospero \(arguments.joined(separator: " "))") { !process.isRunning }
        return (process.terminationStatus,
                String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || JACKClientTests.prospero != nil)))
    func statusPrintsTheServersSettingsAndPorts() throws {
        let server = try JACKTestServer(sampleRate: 44_100, period: 128)
        let result = try Self.run(["jack", "status", "--server", server.name])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("sample rate: 44100 Hz"))
        #expect(result.output.contains("buffer size: 128 frames (2.90 ms)"))
        #expect(result.output.contains("realtime: no"))
        #expect(result.output.contains("CPU load: "))
        #expect(result.output.contains("  system:playback_1 [hardware]"))
        #expect(result.output.contains("  system:capture_2 [hardware]"))
        #expect(result.output.contains("MIDI outputs (sources): none"))
    }

    @Test(.enabled(if: Peers.required || JACKClientTests.prospero != nil))
    func statusWithoutAServerFailsWithAdvice() throws {
        let result = try Self.run(["jack", "status", "--server", "prospero-absent-\(getpid())"])
        #expect(result.status != 0)
        #expect(result.error.contains("no server is running"))
        #expect(result.error.contains("jackd -d dummy"))
    }

    @Test(.enabled(if: Peers.required || JACKClientTests.prospero != nil))
    func statusWithoutLibjackSaysJACKIsNotInstalled() throws {
        let result = try Self.run(["jack", "status"], environment: ["PROSPERO_LIBJACK": "/nonexistent/libjack.so.0"])
        #expect(result.status != 0)
        #expect(result.error.contains("JACK is not installed"))
        #expect(result.error.contains("pipewire-jack"))
        #expect(result.error.contains("WAV"))
    }

    /// `prospero hecate` live follows MIDI clock: a second client sends Start and 24 clocks per quarter
    /// note at 132 BPM into the session's midi_in (connected with --midi-in), and Hecate reports the tempo;
    /// `prospero hands` (whose adapter the studio's hands are too) reports it the same way, and so does
    /// `prospero hisynth play SONG` (the adapter of the studio's rack), whose song the Start plays from its top.
    @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || JACKClientTests.prospero != nil)), arguments: ["hecate", "hands", "hisynth"])
    func liveCommandFollowsMIDIClock(command: String) throws {
        let framesPerClock = 48_000.0 * 60 / (132 * 24)
        var script = [TimedMIDI(frame: 0, bytes: [0xFA])]
        for k in 1...110 { script.append(TimedMIDI(frame: Int((Double(k) * framesPerClock).rounded()), bytes: [0xF8])) }
        let client = ["hecate": "HecateTest", "hands": "HandsTest"][command] ?? "HiSynthTest"
        // HiSynth plays a song (at 100 BPM, so that following 132 is a change): a temporary Standard MIDI File.
        let arguments: [String]
        var songFile: URL?
        defer { if let songFile { try? FileManager.default.removeItem(at: songFile) } }
        if command == "hisynth" {
            var events: [MIDIFileEvent] = [.meta(.tempo(bpm: 100))]
            for _ in 0..<16 {
                events += [.message(.noteOn(channel: 0, note: 72, velocity: 90)), .message(.noteOff(channel: 0, note: 72, velocity: 0), delta: 480)]
            }
            let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDIFileTrack(events: events)])
            let song = FileManager.default.temporaryDirectory.appendingPathComponent("hisynth-clock-\(getpid()).mid")
            try Data(try file.encoded()).write(to: song)
            songFile = song
            arguments = ["hisynth", "play", song.path]
        } else {
            arguments = [command, "--port", "\(40_000 + Int(getpid()) % 20_000)"]
        }
        let server = try JACKTestServer()
        let sender = try JACKClient(configuration: server.configuration(client: "clock"))
        let clock = ScriptedMIDIHandler(script: script)
        try sender.activate(handler: clock)
        defer { sender.close() }
        let live = try ProsperoOnJACK(arguments + ["-s", server.name, "--client-name", client, "--no-connect-audio", "--no-settings",
                                                   "--midi-in", sender.ports.midiOutput], server: server, log: "clock-\(command)")
        try waitUntil("\(command)'s client") { sender.portInfo(named: "\(client):midi_in") != nil || !live.isRunning }
        // --midi-in connects once the session is active; then the clock starts.
        try waitUntil("the clock connection") {
            sender.portInfo(named: "\(client):midi_in").map { !$0.connections.isEmpty } ?? !live.isRunning
        }
        // The command's first periods (its start-up work) pass before the clock starts.
        let periods = sender.statistics.periods
        try waitUntil("the command's first periods") { sender.statistics.periods >= periods + 50 }
        clock.armed.store(true, ordering: .releasing)
        try waitUntil("the clock script") { clock.scriptFinished.load(ordering: .acquiring) }
        let announced = command == "hisynth" ? ["MIDI clock in: 132.0 BPM", "MIDI clock in: Start (the song from its top)"]
            : ["MIDI clock in: 132.0 BPM"]
        _ = try? waitUntil("the tempo announced") { announced.allSatisfy(live.output.contains) || !live.isRunning }
        let status = try live.stop()
        #expect(status == 0, "\(live.output)")
        for line in announced { #expect(live.output.contains(line), "\(live.output)") }
    }

    /// `prospero hecate --callback-timing` at 64-frame periods (the soak run, for seconds instead of a minute):
    /// the stop prints the callbacks' distribution and judges every xrun the command counted; a figure for the
    /// record (the 60 s run is `scripts/soak hecate 1 --period 64 --callback-timing`), so no timing threshold.
    @Test(.enabled(if: Peers.runnable("jackd") && (Peers.required || JACKClientTests.prospero != nil)))
    func hecateCallbackTimingReportsTheDistributionAndEveryXrunsCause() throws {
        let server = try JACKTestServer(period: 64)
        let result = try Self.run(["hecate", "-s", server.name, "--no-connect-audio", "--no-settings",
                                   "--port", "\(40_000 + Int(getpid()) % 20_000 + 7)", "--duration", "2", "--callback-timing"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let stopped = try #require(lines.last { $0.hasPrefix("Stopped (") }, "\(result.output)")
        let counters = try #require(stopped.firstMatch(of: /(\d+) periods, (\d+) xruns/))
        let periods = Int(counters.1)!, xruns = Int(counters.2)!
        let timing = lines.filter { $0.hasPrefix("callback timing: ") }.map { String($0.dropFirst("callback timing: ".count)) }
        let callbacks = try #require(timing.first?.firstMatch(of: /^callbacks (\d+), period 1333.3 µs/), "\(timing)")
        #expect(Int(callbacks.1)! == periods, "one timed callback per period")
        for label in ["wall time (our work + preemption): median ", "thread CPU time (our work only):  median ",
                      "start to next start:               median "] {
            let line = try #require(timing.first { $0.hasPrefix(label) }, "\(label) in \(timing)")
            let q = try #require(line.firstMatch(of: /median ([\d.]+)  p99 ([\d.]+)  p99\.9 ([\d.]+)  max ([\d.]+)/))
            let values = [q.1, q.2, q.3, q.4].map { Double($0)! }
            #expect(values == values.sorted() && values[0] > 0, "\(line)")
        }
        let judged = try #require(timing.first { $0.hasPrefix("xruns reported: ") }, "\(timing)")
        #expect(judged.hasPrefix("xruns reported: \(xruns)"), "every xrun counted is judged: \(judged) against \(stopped)")
        #expect(timing.contains { $0.hasPrefix("cycles this client missed") })
        #expect(timing.contains { $0.hasPrefix("callback thread scheduling: ") })
    }
}
