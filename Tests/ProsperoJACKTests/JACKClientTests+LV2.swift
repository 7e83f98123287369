import Ariel
import Foundation
import ProsperoJACK
import ProsperoTestSupport
import Testing

extension JACKClientTests {
    /// The LV2 bundles scripts/test installed (PROSPERO_LV2_BUNDLES), or nil.
    static var lv2Bundles: String? {
        guard let dir = ProcessInfo.processInfo.environment["PROSPERO_LV2_BUNDLES"], !dir.isEmpty,
              FileManager.default.fileExists(atPath: dir + "/prospero-hisynth.lv2/manifest.ttl") else { return nil }
        return dir
    }

    /// jalv hosts each plugin live on dummy JACK, from the installed bundles with no Swift toolchain on the
    /// library path: jack_midiseq plays A4 (MIDI 69) into its midi_in and jack_rec records its output. HiSynth
    /// and the poly synth sound A4 (440 Hz above its neighbours a semitone away); Hecate, played in C, takes
    /// A as the chord vi, so its drone's root moves from C to A (the A's energy above the C's).
    @Test(.enabled(if: Peers.runnable("jackd", "jack_midiseq", "jack_rec", "jack_connect", "jalv")), arguments: [
        "urn:prospero:lv2:hisynth", "urn:prospero:lv2:polysynth", "urn:prospero:lv2:hecate",
    ])
    func jalvHostsLV2Plugin(uri: String) throws {
        let bundles = try TestPeers.require(Self.lv2Bundles, "the LV2 bundles (scripts/test installs them into PROSPERO_LV2_BUNDLES)")
        // The test server's cycles wait for jalv however late a busy machine makes it, so no MIDI is lost: a lost
        // note-on would leave Hecate's drone on C for that loop of the sequence (A 0.026 against C 0.015, where a
        // whole run has 0.074 against 0.003).
        let run = try Self.recordJalv(uri: uri, bundles: bundles)
        #expect(!run.recorderOutput.lowercased().contains("overrun"), "\(run.recorderOutput)")
        let left = run.audio.channels[0]
        #expect(left.allSatisfy { $0.isFinite && abs($0) < 1 })
        if !uri.hasSuffix("hecate") {
            // HiSynth and the poly synth limit at −1 dBFS through the live output stage (the recording is 24-bit).
            let peak = run.audio.channels.flatMap { $0 }.map { abs($0) }.max() ?? 0
            #expect(peak <= Float(pow(10, -1.0 / 20)) + 1e-6, "peak \(peak) over the −1 dBFS ceiling")
        }
        func amplitude(_ f: Double) -> Double { ProsperoTestSupport.SignalMeasure.toneAmplitude(left, at: f, in: 0..<left.count, sampleRate: 48_000) }
        if uri.hasSuffix("hecate") {
            let a = [110.0, 220, 440].map(amplitude).reduce(0, +)
            let c = [130.81, 261.63, 523.25].map(amplitude).reduce(0, +)
            #expect(a > 2 * c, "A \(a) against C \(c)")
        } else {
            let a4 = amplitude(440)
            #expect(a4 > 0.01, "A4 at \(a4)")
            #expect(a4 > 10 * amplitude(415.3) && a4 > 10 * amplitude(466.16), "A4 \(a4) not above its neighbours")
        }
    }

    static func recordJalv(uri: String, bundles: String) throws -> (audio: WAVAudio, recorderOutput: String) {
        let server = try JACKTestServer(period: 1024)
        defer { server.stop() }
        let name = "lv2-\(uri.split(separator: ":").last!)"
        // jalv's console reads commands on stdin and ends at its end: it gets a pipe this test holds open.
        let jalv = Process()
        jalv.executableURL = URL(fileURLWithPath: try #require(Peers.path(of: "jalv")))
        jalv.arguments = ["-n", name, "-x", uri]
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server.name
        environment["JACK_NO_START_SERVER"] = "1"
        environment["LV2_PATH"] = bundles
        environment["LD_LIBRARY_PATH"] = nil
        jalv.environment = environment
        let input = Pipe()
        jalv.standardInput = input
        jalv.standardOutput = FileHandle.nullDevice
        jalv.standardError = FileHandle.nullDevice
        try jalv.runWithStopSignalsUnblocked()
        defer {
            if jalv.isRunning {
                kill(jalv.processIdentifier, SIGINT)
                if (try? waitUntil("jalv to exit", timeout: .seconds(10)) { !jalv.isRunning }) == nil { kill(jalv.processIdentifier, SIGKILL) }
            }
            try? input.fileHandleForWriting.close()
        }
        // A client of this process that reads the graph and counts its periods.
        let client = try JACKClient(configuration: server.configuration(client: "probe"))
        try client.activate(handler: ScriptedMIDIHandler())
        defer { client.close() }
        try waitUntil("\(name):out_left", timeout: .seconds(60)) { client.portInfo(named: "\(name):out_left") != nil }
        let sequencer = try server.peer("jack_midiseq", ["seq", "48000", "0", "69", "40000"])
        defer { sequencer.stop() }
        try waitUntil("seq:out") { client.portInfo(named: "seq:out") != nil }
        let connect = try server.peer("jack_connect", ["seq:out", "\(name):midi_in"])
        try waitUntil("jack_connect") { !connect.process.isRunning }
        #expect(connect.process.terminationStatus == 0)
        // Half a second of the server's frames (24 periods) for jalv to settle before the take.
        let periods = client.statistics.periods
        try waitUntil("24 periods") { client.statistics.periods >= periods + 24 }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(server.name)-\(name).wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorder = try server.recorder(file: file, seconds: 2, ports: ["\(name):out_left", "\(name):out_right"])
        try waitUntil("jack_rec to finish") { !recorder.process.isRunning }
        #expect(jalv.isRunning, "jalv ended early")
        let audio = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        return (audio, recorder.readOutput())
    }
}
