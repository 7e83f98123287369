import Ariel
import Foundation
import ProsperoJACK
import ProsperoTestSupport
import Testing

extension JACKClientTests {
    /// The live meter tap in `EngineProcessHandler`: every JACK period's levels reach the reader through
    /// the ring. jack_midiseq plays A4 into a sine PolySynth; the blocks' largest peak is the voice level.
    @Test(.enabled(if: Peers.runnable("jackd", "jack_midiseq")))
    func theMeterTapSeesEveryPeriodAtTheSynthsLevel() throws {
        let server = try JACKTestServer(period: 1024)
        let client = try JACKClient(configuration: server.configuration)
        var settings = PolySynthSettings()
        settings.waveform = .sine
        settings.stereo = false
        settings.velocitySensitivity = 0
        settings.sustain = 1
        let handler = EngineProcessHandler(engine: PolySynth(capacity: 4, settings: settings))
        try client.activate(handler: handler)
        let sequencer = try server.peer("jack_midiseq", ["seq", "48000", "0", "69", "40000"])
        defer { sequencer.stop() }
        try waitUntil("seq:out") { client.portInfo(named: "seq:out") != nil }
        try waitUntil("seq to accept a connection") { (try? client.connect("seq:out", to: client.ports.midiInput)) != nil }
        try waitUntil("the first note") { handler.receivedEventCount > 0 }
        // The periods before the note were metered too: silence, for as long as the waits above took. They are read
        // and left out; the note is held for 40 000 frames of every 48 000, so the periods after the first event hold it.
        handler.meterTap.drain { _ in }
        var frames = 0, blocks = 0, peak: Float = 0
        // Read as a status line would, a few times a second, for about 1.5 s of audio.
        try waitUntil("1.5 s of metered audio") {
            handler.meterTap.drain { block in
                frames += block.frameCount
                blocks += 1
                peak = max(peak, block.peakLeft, block.peakRight)
            }
            if frames < 72_000 { usleep(200_000) }
            return frames >= 72_000
        }
        client.close()
        #expect(handler.meterTap.droppedBlockCount == 0)
        #expect(frames % blocks == 0, "whole periods: \(frames) frames in \(blocks) blocks")
        #expect(abs(20 * log10(Double(peak)) - 20 * log10(Double(PolySynth.voiceLevel))) < 0.1, "peak \(peak)")
    }
}
