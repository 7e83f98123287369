import Ariel
import Testing

@Suite("Ariel's landing example")
struct ArielLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // Half a second of A3, then up to a second of release tail, into 24-bit WAV bytes.
        let options = OfflineRenderOptions(sampleRate: 48_000, format: .pcm24, tailSeconds: 1)
        let renderer = OfflineRenderer(engine: PolySynth(capacity: 8), options: options)
        let commands: [ScheduledCommand<PolySynth.Command>] = [
            ScheduledCommand(seconds: 0, sampleRate: options.sampleRate, command: .noteOn(note: 57, velocity: 100, channel: 0)),
            ScheduledCommand(seconds: 0.5, sampleRate: options.sampleRate, command: .noteOff(note: 57, channel: 0)),
        ]
        let encoder = try renderer.render(commands: commands)
        let wavFile = encoder.finish()

        #expect(encoder.frameCount >= 24_000)
        #expect(encoder.frameCount <= 24_000 + 48_000 + 256)
        #expect(Array(wavFile.prefix(4)) == Array("RIFF".utf8))
        #expect(wavFile.count > encoder.frameCount * 2 * 3)
    }
}
