import Enobarbus
import Hecate
import Testing
import Touchstone

@Suite("Hecate's landing example")
struct HecateLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // Brows raised and the jaw a little open, as Enobarbus delivers a face tracker's frame.
        let face = FaceFrame(timestamp: 0, blendshapes: BlendshapeWeights([.browInnerUp: 0.7, .jawOpen: 0.4]))
        var performance = HecatePerformance()
        // A face's first frame is its arrival: the fade-in, then its tone levels and sculpt amounts.
        let commands = performance.commands(for: .face(face))

        // Live, an EngineHost delivers commands from another thread; offline code may call the engine directly.
        let engine = DroneSynthEngine(preset: SoundPack.cathedral.preset, key: .d)
        engine.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2))
        for command in commands { engine.handle(command) }
        var left = [Float](repeating: 0, count: 512), right = left
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in engine.render(left: l, right: r) }
        }

        let amounts = performance.amounts(for: face)
        #expect(commands == [.faceFound, .face(amounts)])
        #expect(amounts.third > 0 && amounts.fifth > 0)
        #expect(left.allSatisfy { $0.isFinite } && right.allSatisfy { $0.isFinite })
        #expect(left.contains { $0 != 0 })
    }
}
