import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `pw-jack prospero studio --audio jack` against a private PipeWire (``PipeWireTestSession``): the studio's
/// JACK client plays through PipeWire-JACK into the null sink; a page's `set` turns the test tone on, and
/// the sink's monitor carries it at the set pitch and level; SIGINT ends the studio with exit 0.
@Suite("Studio on PipeWire", .serialized)
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
        var url: String?
        for _ in 0..<400 where url == nil && studio.process.isRunning {
            url = log().split(separator: "\n").first { $0.hasPrefix("studio: http") }.map { String($0.dropFirst("studio: ".count)) }
            if url == nil { usleep(50_000) }
        }
        let found = try #require(url, "pw-jack prospero studio printed no URL: \(log())")
        let port = Int(found.split(separator: ":").last!.prefix { $0.isNumber })!
        // The banner's last lines follow the URL after the camera bridge is located (a busy machine once read the
        // log between them), so the wait is for the instruments line.
        let banner = MachineDeadline(seconds: 10)
        while !log().contains("studio: instruments:") && studio.process.isRunning && !banner.expired { usleep(20_000) }
        #expect(log().contains("audio: jack"), "\(log())")

        let socket = try RawClient(port: port)
        let host = "127.0.0.1:\(port)"
        #expect(try socket.upgrade(host: host, origin: "http://\(host)").status == 101)
        socket.sendText(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
        _ = try #require(socket.readJSON(until: { $0["type"] as? String == "welcome" }), "no welcome")
        for set in [#""tone.frequency","value":440"#, #""tone.level","value":-12"#, #""tone.on","value":true"#] {
            socket.sendText(#"{"type":"set","path":\#(set)}"#)
        }
        // The studio connects its outputs to the sink as it starts; a busy machine can hold that back (a fixed
        // 0.3 s wait once found them unconnected), so the wait is for the connection, in the machine's time.
        let connected = "PWStudio:out_left\n   \(pipewire.sink.playback[0])"
        var connections = ""
        let connecting = MachineDeadline(seconds: 5)
        repeat {
            connections = try pipewire.run("jack_lsp", ["-c"], timeout: 10).output
            if connections.contains(connected) { break }
            usleep(100_000)
        } while !connecting.expired
        #expect(connections.contains(connected), "\(connections)")

        // On a busy machine PipeWire can miss cycles and write silence into the monitor: the tone is measured on a
        // stretch of at least 0.25 s without such a dropout (the longest in a recording), recorded again up to six
        // times until one has it.
        var measured: (left: [Float], range: Range<Int>, rate: Double)?
        var stretches: [Int] = []
        for _ in 0..<6 where measured == nil {
            let audio = try pipewire.record(seconds: 2)
            let left = audio.channels[0]
            let clean = SignalMeasure.longestUnbroken(left, from: 4_800)
            let inner = (clean.lowerBound + 480)..<max(clean.lowerBound + 480, clean.upperBound - 480)
            stretches.append(clean.count)
            if Double(inner.count) >= 0.25 * Double(audio.sampleRate) { measured = (left, inner, Double(audio.sampleRate)) }
        }

        kill(studio.process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(5)
        while studio.process.isRunning && Date() < deadline { usleep(5_000) }
        #expect(!studio.process.isRunning && studio.process.terminationStatus == 0, "\(log())")

        let (left, middle, rate) = try #require(measured, "no 0.25 s without a dropout in six recordings (longest, in samples: \(stretches))")
        let amplitude = SignalMeasure.toneAmplitude(left, at: 440, in: middle, sampleRate: rate)
        let level = 20 * log10(amplitude)
        #expect(abs(level - -12) < 0.5, "440 Hz at \(level) dBFS at the sink's monitor (set −12), over \(middle.count) samples")
        let rms = SignalMeasure.rms(left, middle)
        #expect(abs(rms - amplitude / 2.0.squareRoot()) < 0.01 * amplitude, "a pure tone: RMS \(rms), 440 Hz amplitude \(amplitude)")
    }
}
