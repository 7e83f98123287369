import Testing
import Touchstone

@Suite("Touchstone's landing example")
struct TouchstoneLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // Prepare once, off the audio thread: it is the only call that may allocate.
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
        var oscillator = BandLimitedOscillator(waveform: .saw, frequency: 110)
        var filter = StateVariableFilter(mode: .lowPass, cutoff: 800, q: 0.7071)
        oscillator.prepare(spec)
        filter.prepare(spec)

        // One block, as an audio callback would render it.
        var block = [Float](repeating: 0, count: spec.maximumBlockSize)
        block.withUnsafeMutableBufferPointer { buffer in
            oscillator.generate(into: buffer)
            filter.process(buffer)
        }

        #expect(block.allSatisfy { $0.isFinite })
        #expect(block.contains { abs($0) > 0.01 })
        #expect(block.allSatisfy { abs($0) < 2 })
    }
}
