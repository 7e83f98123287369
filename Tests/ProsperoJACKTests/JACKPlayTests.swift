import Ariel
import Foundation
import ProsperoJACK
import Testing
import Touchstone

extension JACKClientTests {
    /// `prospero play`'s handler: jack_midiseq plays A4 into it, jack_rec hears a 440 Hz sine at the synth's level.
    @Test(.enabled(if: Peers.runnable("jackd", "jack_midiseq", "jack_rec")))
    func polySynthPlaysMIDIFromMidiseqAtTheRightPitch() throws {
        let server = try JACKTestServer()
        let client = try JACKClient(configuration: server.configuration)
        var settings = PolySynthSettings()
        settings.waveform = .sine
        settings.stereo = false
        settings.velocitySensitivity = 0
        settings.attack = 0.002
        settings.sustain = 1
        settings.release = 0.01
        let handler = EngineProcessHandler(engine: PolySynth(capacity: 16, settings: settings))
        try client.activate(handler: handler)
        let sequencer = try server.peer("jack_midiseq", ["seq", "48000", "0", "69", "40000"])
        defer { sequencer.stop() }
        try waitUntil("seq:out") { client.portInfo(named: "seq:out") != nil }
        try waitUntil("seq to accept a connection") { (try? client.connect("seq:out", to: client.ports.midiInput)) != nil }
        try waitUntil("the first note") { handler.receivedEventCount > 0 }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(server.name)-play.wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorder = try server.recorder(file: file, seconds: 3, ports: [client.ports.leftOutput, client.ports.rightOutput])
        try waitUntil("jack_rec to finish") { !recorder.process.isRunning }
        client.close()

        let audio = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        let left = audio.channels[0]
        #expect(audio.channels[1] == left, "mono: both channels equal")
        // The longest stretch of sound (the note lasts 40 000 of every 48 000 frames), in 5 ms windows.
        let window = 240
        var best = 0..<0, runStart: Int?
        for w in 0...(left.count / window) {
            let range = (w * window)..<min(left.count, (w + 1) * window)
            let loud = !range.isEmpty && left[range].contains { abs($0) > 0.1 }
            if loud, runStart == nil { runStart = range.lowerBound }
            if !loud, let s = runStart {
                if range.lowerBound - s > best.count { best = s..<range.lowerBound }
                runStart = nil
            }
        }
        if let s = runStart, left.count - s > best.count { best = s..<left.count }
        try #require(best.count > 30_000, "longest note \(best.count) frames")
        let samples = Array(left[(best.lowerBound + 2_400)..<(best.upperBound - 2_400)])
        let measured = SignalMeasure.frequency(of: samples, sampleRate: 48_000)
        #expect(abs(measured - 440) < 0.05, "\(measured) Hz")
        let peakDB = SignalMeasure.sinePeakDBFS(samples)
        #expect(abs(peakDB - 20 * log10(Double(PolySynth.voiceLevel))) < 0.1, "\(peakDB) dBFS")
        #expect(handler.droppedEventCount == 0)
    }

    /// `prospero play`'s handler follows MIDI clock on midi_in: a second client sends Start and 24 clocks
    /// per quarter note at 132 BPM (one every 909.09 frames, rounded to whole frames) for 3 s.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func midiClockOnTheInputSetsTheTempo() throws {
        let framesPerClock = 48_000.0 * 60 / (132 * 24)
        var script = [TimedMIDI(frame: 0, bytes: [0xFA])]
        for k in 1...158 { script.append(TimedMIDI(frame: Int((Double(k) * framesPerClock).rounded()), bytes: [0xF8])) }
        let server = try JACKTestServer()
        let synth = try JACKClient(configuration: server.configuration)
        let handler = EngineProcessHandler(engine: PolySynth(capacity: 4, settings: PolySynthSettings()))
        try synth.activate(handler: handler)
        let sender = try JACKClient(configuration: server.configuration(client: "clock"))
        let clock = ScriptedMIDIHandler(script: script)
        try sender.activate(handler: clock)
        try waitUntil("the clock to connect") { (try? sender.connect(sender.ports.midiOutput, to: synth.ports.midiInput)) != nil }
        #expect(handler.clockBPM == nil, "no tempo before any clock")
        clock.armed.store(true, ordering: .releasing)
        try waitUntil("the clock script") { clock.scriptFinished.load(ordering: .acquiring) }
        // The last period's clocks reach the synth in the next period.
        let periods = synth.statistics.periods
        try waitUntil("two more periods") { synth.statistics.periods >= periods + 2 }
        sender.close()
        synth.close()
        let bpm = try #require(handler.clockBPM, "a tempo after 3 s of clock")
        #expect(abs(bpm - 132) < 0.1, "\(bpm) BPM")
        #expect(handler.receivedEventCount == 0, "clock and transport are not notes for the synth")
    }
}

extension JACKClientTests {
    /// The poly synth's limiter delay (live, the live stage: 1 ms in all, 48 frames at 48 kHz, the
    /// true-peak stage's frames included) reaches JACK as port latency: midi_in's playback latency is the outputs'
    /// plus that delay, and the outputs' capture latency is midi_in's plus it, so a DAW compensates.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func theLimitersLookAheadIsReportedAsPortLatency() throws {
        let server = try JACKTestServer(period: 1024)
        let client = try JACKClient(configuration: server.configuration)
        let handler = EngineProcessHandler(engine: PolySynth(capacity: 4, settings: PolySynthSettings()),
                                           latency: { engine, _ in engine.latencySamples })
        try client.activate(handler: handler)
        defer { client.close() }
        let delay = 48
        #expect(handler.processingLatency == delay)
        try waitUntil("the outputs to connect") { (try? client.connect(client.ports.leftOutput, to: "system:playback_1")) != nil }
        try client.connect(client.ports.rightOutput, to: "system:playback_2")
        try waitUntil("JACK to recompute latencies") {
            let out = client.latencyRange(of: client.ports.leftOutput, playback: true)
            let input = client.latencyRange(of: client.ports.midiInput, playback: true)
            return out != nil && input != nil && out!.upperBound > 0 && input!.upperBound == out!.upperBound + delay
        }
        let out = try #require(client.latencyRange(of: client.ports.leftOutput, playback: true))
        let input = try #require(client.latencyRange(of: client.ports.midiInput, playback: true))
        #expect(input.lowerBound == out.lowerBound + delay && input.upperBound == out.upperBound + delay, "\(out) \(input)")
        let captured = try #require(client.latencyRange(of: client.ports.leftOutput, playback: false))
        let inputCaptured = try #require(client.latencyRange(of: client.ports.midiInput, playback: false))
        #expect(captured.upperBound == inputCaptured.upperBound + delay, "\(inputCaptured) \(captured)")
    }
}
