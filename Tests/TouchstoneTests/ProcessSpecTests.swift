import Testing
import Touchstone

@Suite struct ProcessSpecTests {
    /// A kernel written against the contract gets the default block loop for free.
    struct Gain: MonoProcessor {
        var gain: Float = 0.5
        mutating func prepare(_ spec: ProcessSpec) {}
        mutating func reset() {}
        mutating func processSample(_ input: Float) -> Float { input * gain }
    }

    @Test func defaultBlockProcessingAppliesTheSampleCallToEveryFrame() {
        var kernel = Gain()
        kernel.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 4))
        var samples: [Float] = [1, -1, 0.5, 0]
        samples.withUnsafeMutableBufferPointer { kernel.process($0) }
        #expect(samples == [0.5, -0.5, 0.25, 0])
    }
}
