import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `pw-jack prospero studio --audio jack` against a private PipeWire (``PipeWireTestSession``): the studio's
/// JACK client plays through PipeWire-JACK into the null sink; a page's `set` turns the test tone on, and
/// the sink's monitor carries it at the set pitch and level; SIGINT ends the studio with exit 0.
@Suite("Studio on PipeWire", .serialized, .ownThread)
struct StudioPipeWireTests {
    static var runnable: Bool {
        TestPeers.enabled(PipeWireTestSession.available && TestPeers.executable("jack_rec") != nil && TestPeers.prospero != nil)
    }

    @Test("studio --audio jack under pw-jack: the test tone set from a socket sounds at the sink's monitor", .enabled(if: runnable))
    func studioToneReachesTheSink() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        _ = try TestPeers.require(TestPeers.executable("jack_rec"), "jack_rec (apt-get install jackd2)")
        let pipewire = try PipeWireTestSession()
        defer { pipewire.stop() }
        let studio = try pipewire.start(prospero.path, ["studio", "--audio", "jack", "--port", "0", "--osc-port", "0", "--no-settings",
                                                        "--client-name", "PWStudio"])
        defer { PipeWireTestSession.stop(studio.process, signal: SIGKILL) }
        func log() -> String { (try? String(contentsOf: studio.log, encoding: .utf8)) ?? "" }
        // The banner's last lines follow the URL after the camera bridge is located, so the wait is for the
        // instruments line.
        try Eventually.holds("pw-jack prospero studio's banner: \(log())", poll: 0.05) {
            log().contains("studio: instruments:") || !studio.process.isRunning
        }
        let found = try #require(log().split(separator: "\n").first { $0.hasPrefix("studio: http") }.map { String($0.dropFirst("studio: ".count)) },
                                 "pw-jack prospero studio printed no URL: \(log())")
        let port = Int(found.split(separator: ":").last!.prefix { $0.isNumber })!
        #expect(log().contains("audio: jack"), "\(log())")

        let socket = try RawClient(port: port)
        let host = "127.0.0.1:\(port)"
        #expect(try socket.upgrade(host: host, origin: "http://\(host)").status == 101)
        socket.sendText(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
        _ = try #require(socket.readJSON(until: { $0["type"] as? String == "welcome" }), "no welcome")
        for set in [#""tone.frequency","value":440"#, #""tone.level","value":-12"#, #""tone.on","value":true"#] {
            socket.sendText(#"{"type":"set","path":\#(set)}"#)
        }
        // The studio connects its outputs to the sink as it starts; a busy machine can hold that back, so the wait is
        // for the connection.
        let connected = "PWStudio:out_left\n   \(pipewire.sink.playback[0])"
        var connections = ""
        try Eventually.holds("the studio's output connected to the sink: \(connections)", poll: 0.1) {
            connections = (try? pipewire.run("jack_lsp", ["-c"]).output) ?? ""
            return connections.contains(connected)
        }

        // On a busy machine PipeWire can miss cycles and write silence into the monitor: the tone is measured on the
        // longest stretch of one 4 s take without such a dropout, at least 0.1 s of it (44 cycles of 440 Hz).
        let audio = try pipewire.record(seconds: 4)
        let left = audio.channels[0], rate = Double(audio.sampleRate)
        let clean = SignalMeasure.longestUnbroken(left, from: 4_800)
        let middle = (clean.lowerBound + 480)..<max(clean.lowerBound + 480, clean.upperBound - 480)

        kill(studio.process.processIdentifier, SIGINT)
        try Eventually.holds("the studio's stop after SIGINT") { !studio.process.isRunning }
        #expect(studio.process.terminationStatus == 0, "\(log())")

        try #require(Double(middle.count) >= 0.1 * rate, "no 0.1 s without a dropout in the take (longest: \(clean.count) samples)")
        let amplitude = SignalMeasure.toneAmplitude(left, at: 440, in: middle, sampleRate: rate)
        let level = 20 * log10(amplitude)
        #expect(abs(level - -12) < 0.5, "440 Hz at \(level) dBFS at the sink's monitor (set −12), over \(middle.count) samples")
        let rms = SignalMeasure.rms(left, middle)
        #expect(abs(rms - amplitude / 2.0.squareRoot()) < 0.01 * amplitude, "a pure tone: RMS \(rms), 440 Hz amplitude \(amplitude)")
    }
}
