import AllocationCounting
import Foundation
import Oberon
import Testing

/// The live meters allocate nothing per block once created (they are fed from the audio side).
@Suite(.enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"))
struct MeterAllocationTests {
    @Test func metersAndSpectrumAllocateNothingPerBlock() throws {
        try #require(AllocationCounter.isAvailable)
        let rate = 48_000.0
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        defer { block.deallocate() }
        for i in 0..<256 { block[i] = Float(sin(Double(i) * 0.07)) * 0.5 }
        let samples = UnsafeBufferPointer(block)
        let loudness = LoudnessMeter(sampleRate: rate, channelCount: 2)
        let truePeak = TruePeakMeter(channelCount: 2)
        var peak = PeakMeter(sampleRate: rate)
        let rms = RMSMeter(sampleRate: rate)
        let spectrum = SpectrumAnalyzer(size: 256, window: .blackmanHarris)
        let amplitudes = UnsafeMutableBufferPointer<Float>.allocate(capacity: spectrum.binCount)
        defer { amplitudes.deallocate() }
        func run() {
            loudness.process(left: samples, right: samples)
            truePeak.process(channel: 0, samples)
            truePeak.process(channel: 1, samples)
            peak.process(samples)
            rms.process(samples)
            spectrum.magnitudes(of: samples, into: amplitudes)
        }
        run()  // warm-up
        // 2 000 blocks: more than 10 s, so 100 ms steps, momentary and short-term blocks all happen.
        let allocations = AllocationCounter.allocations {
            for _ in 0..<2_000 { run() }
        }
        #expect(allocations == 0)
        #expect(loudness.integratedLoudness != nil)
    }
}
