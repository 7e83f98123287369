import Foundation
import Testing
import Touchstone

@Suite struct DelayLineTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 256)

    static func makeLine(delaySamples: Double, feedback: Float = 0, mix: Float = 1) -> DelayLine {
        let line = DelayLine(maximumDelay: 1, delayTime: Float(delaySamples / sampleRate), feedback: feedback, mix: mix)
        line.prepare(spec)
        return line
    }

    static func impulseResponse(_ line: DelayLine, count: Int) -> [Float] {
        var line = line
        var input = [Float](repeating: 0, count: count)
        input[0] = 1
        return EffectsTestSignal.render(&line, input)
    }

    @Test func integerDelayMovesAnImpulseExactly() {
        let response = Self.impulseResponse(Self.makeLine(delaySamples: 100), count: 400)
        // 100/48 000 s is not exact in Float seconds: a residual fraction of ~1e-6 samples.
        #expect(abs(response[100] - 1) < 1e-4)
        #expect(response.enumerated().allSatisfy { $0.offset == 100 || abs($0.element) < 1e-4 })
    }

    /// At fractional delays the impulse response is the Hermite kernel; its
    /// frequency response must match the ideal band-limited delay e^(−jωd)
    /// with the error of a 4-point cubic: O(ω⁴), < 1e-4 at fs/48 and < 3e-3 at fs/12.
    @Test(arguments: [100.25, 100.5, 100.8, 37.1])
    func fractionalDelayMatchesTheIdealBandLimitedDelay(delay: Double) {
        let response = Self.impulseResponse(Self.makeLine(delaySamples: delay), count: 256)
        let nonZero = response.indices.filter { response[$0] != 0 }
        #expect(nonZero.count == 4, "four Hermite taps")
        #expect(nonZero.first! == Int(delay) - 1 && nonZero.last! == Int(delay) + 2)
        #expect(abs(response.reduce(0, +) - 1) < 1e-5, "unity DC gain")
        for (frequency, tolerance) in [(1_000.0, 1e-4), (4_000.0, 3e-3)] {
            let w = 2 * Double.pi * frequency / Self.sampleRate
            var re = 0.0, im = 0.0
            for (n, h) in response.enumerated() {
                re += Double(h) * cos(w * Double(n))
                im -= Double(h) * sin(w * Double(n))
            }
            let idealRe = cos(w * delay), idealIm = -sin(w * delay)
            let error = ((re - idealRe) * (re - idealRe) + (im - idealIm) * (im - idealIm)).squareRoot()
            #expect(error < tolerance, "delay \(delay), \(frequency) Hz: |H − e^(−jωd)| = \(error)")
        }
    }

    @Test func sineComesOutShiftedByTheFractionalDelay() {
        let delay = 123.37
        var line = Self.makeLine(delaySamples: delay)
        let input = EffectsTestSignal.sine(frequency: 1_000, sampleRate: Self.sampleRate, count: 4_800, amplitude: 0.9)
        let output = EffectsTestSignal.render(&line, input)
        var worst: Float = 0
        for n in 200..<output.count {
            let ideal = 0.9 * Float(sin(2 * Double.pi * 1_000 * (Double(n) - delay) / Self.sampleRate))
            worst = max(worst, abs(output[n] - ideal))
        }
        #expect(worst < 1e-4)
    }

    @Test(arguments: [Float(0.5), -0.7, 0.99])
    func feedbackRepeatsDecayGeometrically(feedback: Float) {
        let response = Self.impulseResponse(Self.makeLine(delaySamples: 100, feedback: feedback), count: 1_000)
        for k in 1...8 {
            let expected = pow(feedback, Float(k - 1))
            #expect(abs(response[100 * k] - expected) < 1e-5, "repeat \(k)")
        }
        let elsewhere = response.indices.filter { $0 % 100 != 0 }.map { abs(response[$0]) }.max()!
        #expect(elsewhere < 1e-4)
    }

    @Test func feedbackIsClampedBelowOne() {
        let line = DelayLine(feedback: 1.5)
        #expect(line.feedback == 0.99)
        line.feedback = -4
        #expect(line.feedback == -0.99)
    }

    /// The in-loop low-pass has unity DC gain: a repeat keeps its area (sum) but
    /// loses its peak as it is smeared.
    @Test func dampingDarkensEachRepeat() {
        let line = Self.makeLine(delaySamples: 200, feedback: 0.8)
        line.dampingCutoff = 2_000
        line.reset()
        let response = Self.impulseResponse(line, count: 800)
        let second = response[390..<600]
        #expect(abs(second.reduce(0, +) - 0.8) < 1e-3)
        #expect(second.max()! < 0.5)
        #expect(abs(response[200] - 1) < 1e-4, "the first repeat has not been through the loop")
    }

    /// Changing the delay time under a note glides (pitch bend) instead of jumping.
    @Test func delayTimeChangesDoNotClick() {
        func largestStepAfterChange(smoothing: Float) -> Float {
            let line = DelayLine(maximumDelay: 1, delayTime: 0.3, feedback: 0, mix: 1)
            line.delayTimeSmoothing = smoothing
            line.prepare(Self.spec)
            var signal = line
            // A cosine: at the change the old and new reads are half a period apart.
            let input = EffectsTestSignal.sine(frequency: 440, sampleRate: Self.sampleRate, count: 96_000, amplitude: 0.5, phase: Double.pi / 2)
            var output: [Float] = []
            output += EffectsTestSignal.render(&signal, Array(input[..<48_000]), blockSize: 240)
            line.delayTime = 0.3 - 0.5 / 440
            output += EffectsTestSignal.render(&signal, Array(input[48_000...]), blockSize: 240)
            return EffectsTestSignal.largestStep(output[47_000...])
        }
        let naturalStep = Float(2 * Double.pi * 440 / Self.sampleRate * 0.5)
        #expect(largestStepAfterChange(smoothing: 0.05) < 3 * naturalStep)
        #expect(largestStepAfterChange(smoothing: 0) > 0.5, "counterfactual: a jump clicks")
    }

    @Test func modulationOffsetsTheDelayPerSample() {
        let line = Self.makeLine(delaySamples: 100)
        var input = [Float](repeating: 0, count: 300)
        input[0] = 1
        let offset = [Float](repeating: Float(20 / Self.sampleRate), count: 300)
        offset.withUnsafeBufferPointer { modulation in
            input.withUnsafeMutableBufferPointer { line.process($0, modulation: modulation) }
        }
        #expect(abs(input[120] - 1) < 1e-4)
    }

    @Test func stereoDelayOffsetsTheRightChannel() {
        let delay = StereoDelay(maximumDelay: 1, delayTime: Float(100 / Self.sampleRate), feedback: 0, mix: 1)
        delay.delayTimeSmoothing(0)
        delay.rightTimeOffset = Float(10 / Self.sampleRate)
        delay.prepare(Self.spec)
        var kernel = delay
        var impulse = [Float](repeating: 0, count: 300)
        impulse[0] = 1
        let out = EffectsTestSignal.render(&kernel, left: impulse, right: impulse)
        #expect(abs(out.left[100] - 1) < 1e-4)
        #expect(abs(out.right[110] - 1) < 1e-4)
    }
}

extension StereoDelay {
    fileprivate func delayTimeSmoothing(_ seconds: Float) {
        left.delayTimeSmoothing = seconds
        right.delayTimeSmoothing = seconds
    }
}
