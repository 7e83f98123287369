import Foundation
import Testing
import Touchstone

/// The phasor lanes are judged against `sin` in Double: the right frequency and phase over a long run
/// (no drift), unit amplitude after hours, continuity through frequency changes.
@Suite struct RotatingSineLanesTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 256)

    @Test func tenSecondsMatchTheExactSineInFrequencyAndPhase() {
        let hz = SIMD4<Float>(32.7, 196, 1_234.5, 9_000)
        let start = SIMD4<Float>(0, 0.25, 0.6, 0.9)
        var lanes = RotatingSineLanes(frequencies: hz, phases: start)
        lanes.prepare(Self.spec)
        // The rotation's cos/sin are rounded to Float, so the frequency is off by up to ~1e-7 relative
        // (0.0002 cents) and the phase error grows with the cycles played: allowed 1e-4 plus 2e-7 of a
        // turn per cycle (0.11 at 9 kHz after 10 s, 0.0004 at 33 Hz), which still fails a wrong step, a
        // wrong start phase or any amplitude drift.
        var worstRatio: Double = 0
        for n in 0..<480_000 {
            let y = lanes.nextSample()
            for lane in 0..<4 {
                // The oscillator's own step is the Float frequency over the Float sample period.
                let step = Double(hz[lane] * Float(1 / Self.sampleRate))
                let exact = sin(2 * Double.pi * (Double(start[lane]) + step * Double(n)))
                let allowed = 1e-4 + 2 * Double.pi * step * Double(n) * 2e-7
                worstRatio = max(worstRatio, abs(Double(y[lane]) - exact) / allowed)
            }
        }
        #expect(worstRatio < 1, "error reached \(worstRatio) of the allowance against sin over 10 s")
    }

    @Test func amplitudeStaysAtOneForAnHour() {
        var lanes = RotatingSineLanes(frequencies: SIMD4(41.2, 440, 3_000, 17_000))
        lanes.prepare(Self.spec)
        var peaks = SIMD4<Float>()
        for n in 0..<(48_000 * 3_600) {
            let y = lanes.nextSample()
            if n >= 48_000 * 3_599 { for lane in 0..<4 { peaks[lane] = max(peaks[lane], abs(y[lane])) } }
        }
        for lane in 0..<4 { #expect(abs(peaks[lane] - 1) < 1e-3, "lane \(lane): peak \(peaks[lane]) in the last second of an hour") }
    }

    /// A glide changes the step every sample; the output moves on without a jump.
    @Test func frequencyChangesKeepThePhaseContinuous() {
        var lanes = RotatingSineLanes(frequencies: SIMD4(repeating: 100))
        lanes.prepare(Self.spec)
        var previous = lanes.nextSample()
        var largestStep: Float = 0
        for n in 0..<48_000 {
            let hz = Float(100 * pow(2, Double(n) / 12_000))  // two octaves up in one second
            lanes.setFrequencies(SIMD4(repeating: hz))
            let y = lanes.nextSample()
            largestStep = max(largestStep, abs(y[0] - previous[0]))
            previous = y
        }
        // The largest sample-to-sample change of a unit sine at 1.6 kHz is 2π·1600/48000 ≈ 0.21.
        #expect(largestStep < 0.22)
        #expect(abs(lanes.frequencies[0] - 1_600) < 1)
    }

    @Test func hostileFrequenciesAreClamped() {
        var lanes = RotatingSineLanes(frequencies: SIMD4(.nan, -5, .infinity, 100))
        lanes.prepare(Self.spec)
        for _ in 0..<4_800 {
            let y = lanes.nextSample()
            for lane in 0..<4 { #expect(y[lane].isFinite && abs(y[lane]) <= 1.0001) }
        }
        #expect(lanes.frequencies[0] == 0)
        #expect(lanes.frequencies[1] == 0)
        #expect(abs(lanes.frequencies[2] - 21_600) < 0.01)
    }
}
