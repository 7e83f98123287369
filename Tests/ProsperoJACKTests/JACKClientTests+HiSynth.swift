import Ariel
import Foundation
import HiSynth
import ProsperoJACK
import Testing

extension JACKClientTests {
    /// `prospero hisynth play`'s handler: a looping song (one E5 of 200 s, longer than any wait here) plays while jack_midiseq plays A4
    /// on midi_in; jack_rec hears both, the keyboard's note at 440 Hz at the preset's level (Init with
    /// both sine layers at 0.25: 2 × 0.25 × the filter-out gain 0.5 = −12 dBFS).
    @Test(.enabled(if: Peers.runnable("jackd", "jack_midiseq", "jack_rec")))
    func hiSynthPlaysASongAndMIDIFromMidiseq() throws {
        let run = try Self.recordHiSynth()
        #expect(!run.recorderOutput.lowercased().contains("overrun"), "\(run.recorderOutput)")
        let audio = run.audio
        let handler = run.handler
        let left = audio.channels[0]
        #expect(audio.channels[1] == left, "mono: both channels equal (Init's reverb is off)")
        // The song's E5 sounds throughout; the keyboard's A4 for 40 000 of every 48 000 frames.
        func amplitude(_ f: Double, _ range: Range<Int>) -> Double {
            let w = 2 * Double.pi * f / 48_000, c = 2 * cos(w)
            var s1 = 0.0, s2 = 0.0, sum = 0.0
            for (k, i) in range.enumerated() {
                let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(range.count - 1))
                sum += hann
                let s0 = Double(left[i]) * hann + c * s1 - s2
                s2 = s1
                s1 = s0
            }
            return 2 * max(0, s1 * s1 + s2 * s2 - c * s1 * s2).squareRoot() / sum
        }
        let whole = 0..<left.count
        #expect(abs(amplitude(HiSynthRigFrequencies.e5, whole) - 0.25) < 0.01)
        // Where A4 sounds, it has the preset's level.
        var best = 0.0
        var start = 0
        while start + 4_800 <= left.count {
            best = max(best, amplitude(440, start..<(start + 4_800)))
            start += 2_400
        }
        #expect(abs(20 * log10(best) - 20 * log10(0.25)) < 0.2, "A4 at \(20 * log10(best)) dBFS")
        #expect(handler.droppedEventCount == 0)
    }

    /// One 3-second `jack_rec` recording of a looping HiSynth song with jack_midiseq on midi_in.
    static func recordHiSynth() throws -> (audio: WAVAudio, recorderOutput: String, handler: EngineProcessHandler<HiSynthSongPlayer>) {
        // 1024-frame periods, as the other recording tests: fewer cycles for a busy machine to hold back.
        let server = try JACKTestServer(period: 1024)
        let client = try JACKClient(configuration: server.configuration)
        var initPreset = try #require(HiSynthPreset.factory.first { $0.name == "Init" })
        // Both layers at 0.25, so the song's note and the keyboard's together stay below the limiter.
        initPreset.oscillators[0].level = 0.25
        initPreset.oscillators[1].level = 0.25
        let songFile = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [MIDIFileTrack(events: [
            .message(.noteOn(channel: 0, note: 76, velocity: 90)), .message(.noteOff(channel: 0, note: 76, velocity: 0), delta: 480 * 400),
        ])])
        let player = HiSynthSongPlayer(engine: HiSynthEngine(preset: initPreset), song: HiSynthSong(file: songFile, name: "Test - E5"),
                                       playing: true, looping: true)
        let handler = EngineProcessHandler(engine: player)
        try client.activate(handler: handler)
        let sequencer = try server.peer("jack_midiseq", ["seq", "48000", "0", "69", "40000"])
        defer { sequencer.stop() }
        try waitUntil("seq:out") { client.portInfo(named: "seq:out") != nil }
        try waitUntil("seq to accept a connection") { (try? client.connect("seq:out", to: client.ports.midiInput)) != nil }
        try waitUntil("the first note") { handler.receivedEventCount > 0 }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(server.name)-hisynth.wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorder = try server.recorder(file: file, seconds: 3, ports: [client.ports.leftOutput, client.ports.rightOutput])
        try waitUntil("jack_rec to finish") { !recorder.process.isRunning }
        client.close()

        let audio = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        return (audio, recorder.readOutput(), handler)
    }
}

private enum HiSynthRigFrequencies {
    static let e5 = 440 * pow(2, 7.0 / 12)
}
