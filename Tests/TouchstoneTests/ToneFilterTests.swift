import Foundation
import Testing
import Touchstone

@Suite struct ToneFilterTests {
    static let sampleRate = 48_000.0

    /// |H| of y[n] = y[n−1] + a(x[n] − y[n−1]) at `frequency`, from theory.
    static func theoreticalGain(cutoff: Double, frequency: Double) -> Double {
        let a = 1 - exp(-2 * Double.pi * cutoff / sampleRate)
        let w = 2 * Double.pi * frequency / sampleRate
        let re = 1 - (1 - a) * cos(w)
        let im = (1 - a) * sin(w)
        return a / (re * re + im * im).squareRoot()
    }

    @Test(arguments: [(500.0, 100.0), (500.0, 500.0), (500.0, 4000.0), (2000.0, 2000.0), (8000.0, 12000.0)])
    func steadyStateGainMatchesTheOnePoleResponse(cutoff: Double, frequency: Double) {
        var filter = ToneFilter(cutoff: Float(cutoff))
        filter.prepare(ProcessSpec(sampleRate: Self.sampleRate, maximumBlockSize: 256))
        let input = EffectsTestSignal.sine(frequency: frequency, sampleRate: Self.sampleRate, count: 48_000)
        let output = EffectsTestSignal.render(&filter, input)
        // Whole periods in the last 0.5 s (frequencies divide 24 000 evenly).
        let measured = EffectsTestSignal.rms(output[24_000...]) / EffectsTestSignal.rms(input[24_000...])
        let expected = Self.theoreticalGain(cutoff: cutoff, frequency: frequency)
        #expect(abs(20 * log10(measured / expected)) < 0.02, "measured \(measured), theory \(expected)")
    }

    @Test func cutoffIsTheMinus3DecibelPointWellBelowNyquist() {
        let gain = Self.theoreticalGain(cutoff: 300, frequency: 300)
        #expect(abs(20 * log10(gain) + 3.01) < 0.05)
    }

    @Test func toneKnobMapsExponentially() {
        var filter = ToneFilter()
        filter.tone = 0
        #expect(abs(filter.cutoff - 200) < 0.01)
        filter.tone = 0.5
        #expect(abs(filter.cutoff - 2000) < 0.5)
        filter.tone = 1
        #expect(abs(filter.cutoff - 20_000) < 2)
        filter.tone = 0.25
        #expect(abs(filter.tone - 0.25) < 1e-5)
        filter.cutoff = 5
        #expect(filter.cutoff == 20)
        filter.cutoff = .nan
        #expect(filter.cutoff == 20_000)
    }

    /// A one-pole's output stays continuous when its coefficient jumps, but its
    /// slope breaks (the audible "zipper"). A sudden knob move must glide: the
    /// second difference stays near the signal's own curvature.
    @Test func cutoffChangesAreSmoothed() {
        func largestCurvatureAfterJump(smoothing: Float) -> Float {
            var filter = ToneFilter(cutoff: 20_000)
            filter.smoothingTime = smoothing
            filter.prepare(ProcessSpec(sampleRate: Self.sampleRate, maximumBlockSize: 256))
            let input = EffectsTestSignal.sine(frequency: 100, sampleRate: Self.sampleRate, count: 9_600, amplitude: 0.8)
            var output = [Float](repeating: 0, count: input.count)
            for i in input.indices {
                if i == 4_800 { filter.cutoff = 20 }  // at a zero crossing, where the slope is steepest
                output[i] = filter.processSample(input[i])
            }
            var largest: Float = 0
            for n in 4_700..<output.count {
                largest = max(largest, abs(output[n] - 2 * output[n - 1] + output[n - 2]))
            }
            return largest
        }
        let naturalCurvature = Float(pow(2 * Double.pi * 100 / Self.sampleRate, 2) * 0.8)
        #expect(largestCurvatureAfterJump(smoothing: 0.02) < 5 * naturalCurvature)
        // Counterfactual: without smoothing the same move breaks the slope.
        #expect(largestCurvatureAfterJump(smoothing: 0) > 20 * naturalCurvature)
    }
}
