import Foundation
import Oberon
import Testing

/// Peak and RMS meters against their definitions.
@Suite struct MeterBallisticsTests {
    /// Instant attack, hold, then 20 dB in 1.7 s (linear in dB).
    @Test func peakMeterHoldsThenFallsTwentyDecibelsInOnePointSevenSeconds() {
        let rate = 48_000.0
        var meter = PeakMeter(sampleRate: rate, holdTime: 0.5)
        var signal = [Float](repeating: 0, count: Int(rate * 3))
        signal[0] = 0.5
        var readings: [Double] = []
        signal.withUnsafeBufferPointer { samples in
            for start in stride(from: 0, to: samples.count, by: 480) {
                meter.process(UnsafeBufferPointer(rebasing: samples[start..<(start + 480)]))
                readings.append(meter.levelDecibels)  // after each 10 ms
            }
        }
        let peak = 20 * log10(0.5)
        #expect(abs(readings[0] - peak) < 1e-4, "instant attack")
        #expect(abs(readings[49] - peak) < 1e-4, "held for 0.5 s")
        // The hold ends with sample 24 000; each later sample falls by 20/1.7 dB per second.
        for k in [60, 100, 219, 249] {
            let fallen = Double((k + 1) * 480 - 24_001) / rate
            #expect(abs(readings[k] - (peak - 20 / 1.7 * fallen)) < 0.001, "at \(Double(k + 1) * 0.01) s")
        }
        // So 1.7 s after the hold, 20 dB down.
        #expect(abs(readings[49 + 170] - (peak - 20)) < 0.15)
        #expect(meter.maximum == 0.5)
    }

    /// A full-scale sine reads −3.01 dB (no AES17 +3 dB); a 150 ms burst of DC in the 300 ms window
    /// reads half its power; 300 ms of silence later, nothing.
    @Test func rmsMeterIsThePlainRootMeanSquareOverThreeHundredMilliseconds() {
        let rate = 48_000.0
        let meter = RMSMeter(sampleRate: rate)
        #expect(meter.windowSamples == 14_400)
        let sine = (0..<48_000).map { Float(sin(2 * Double.pi * 997 * Double($0) / rate)) }
        sine.withUnsafeBufferPointer { meter.process($0) }
        #expect(abs(meter.levelDecibels + 3.0103) < 0.01)
        meter.reset()
        let silence = [Float](repeating: 0, count: 14_400)
        silence.withUnsafeBufferPointer { meter.process($0) }
        let burst = [Float](repeating: 1, count: 7_200)
        burst.withUnsafeBufferPointer { meter.process($0) }
        #expect(abs(meter.levelDecibels + 3.0103) < 1e-6)
        silence.withUnsafeBufferPointer { meter.process($0) }
        #expect(meter.meanSquare == 0)
    }
}
