import Ariel
import HiSynth
import Testing

@Suite("HiSynth's landing example")
struct HiSynthLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // The first factory preset, in the string form players share; decoding and encoding are byte-exact.
        let shared = HiSynthPreset.factoryStrings[0]
        let preset = try HiSynthPreset(string: shared)
        let reencoded = try preset.encoded()

        // Middle C for a quarter of a second, rendered offline at 44.1 kHz with half a second of tail.
        let options = OfflineRenderOptions(sampleRate: 44_100, tailSeconds: 0.5)
        let renderer = OfflineRenderer(engine: HiSynthEngine(preset: preset), options: options)
        let commands: [ScheduledCommand<HiSynthEngine.Command>] = [
            ScheduledCommand(seconds: 0, sampleRate: options.sampleRate, command: .noteOn(60)),
            ScheduledCommand(seconds: 0.25, sampleRate: options.sampleRate, command: .noteOff(60)),
        ]
        let wav = try renderer.render(commands: commands)

        #expect(reencoded == shared)
        #expect(preset == HiSynthPreset.factory[0])
        #expect(wav.frameCount >= 11_025)
        #expect(wav.frameCount <= 11_025 + 22_050 + 256)
        #expect(wav.sampleRate == 44_100)
    }
}
