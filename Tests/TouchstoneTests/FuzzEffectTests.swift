import Foundation
import Testing
import Touchstone

@Suite struct FuzzEffectTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512)

    @Test(arguments: [Float(0), 6, 18, 30, 48])
    func transferCurveIsNormalisedTanh(drive: Float) {
        var fuzz = Fuzz(drive: drive, outputLevel: 0, mix: 1)
        fuzz.prepare(Self.spec)
        let input: [Float] = (0...2000).map { Float($0) / 1000 - 1 }
        let output = EffectsTestSignal.render(&fuzz, input)
        let g = pow(10, Double(drive) / 20)
        var worst = 0.0
        for (x, y) in zip(input, output) {
            let expected = tanh(g * Double(x)) / tanh(g)
            worst = max(worst, abs(Double(y) - expected))
        }
        #expect(worst < 2e-6, "drive \(drive) dB: worst deviation \(worst)")
        #expect(abs(output.last! - 1) < 1e-6 && abs(output.first! + 1) < 1e-6, "full scale stays full scale")
    }

    @Test func outputLevelAndMix() {
        var fuzz = Fuzz(drive: 24, outputLevel: -6, mix: 0.5)
        fuzz.prepare(Self.spec)
        let y = fuzz.processSample(0.3)
        let g = pow(10, 24.0 / 20)
        let wet = pow(10, -6.0 / 20) * tanh(g * 0.3) / tanh(g)
        #expect(abs(Double(y) - (0.5 * 0.3 + 0.5 * wet)) < 2e-6)
        var dry = Fuzz(drive: 48, mix: 0)
        dry.prepare(Self.spec)
        #expect(dry.processSample(0.123) == 0.123)
    }

    /// The drive is smoothed per sample: moving it under a sustained note has no step.
    @Test func driveChangesAreSmoothed() {
        func largestStep(smoothing: Float) -> Float {
            var fuzz = Fuzz(drive: 0, mix: 1)
            fuzz.smoothingTime = smoothing
            fuzz.prepare(Self.spec)
            let input = EffectsTestSignal.sine(frequency: 50, sampleRate: 48_000, count: 9_600, amplitude: 0.5)
            var output = [Float](repeating: 0, count: input.count)
            for i in input.indices {
                if i == 4_560 { fuzz.drive = 12 }  // at the peak of the 50 Hz sine
                output[i] = fuzz.processSample(input[i])
            }
            return EffectsTestSignal.largestStep(output[4_500...])
        }
        #expect(largestStep(smoothing: 0.01) < 0.05)
        #expect(largestStep(smoothing: 0) > 0.2, "counterfactual: an unsmoothed change jumps")
    }
}

@Suite struct SoftClipDistortionTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512)

    @Test(arguments: [Float(-40), -12, 0, 6, 20])
    func transferCurveIsTheCubicSoftClip(gain: Float) {
        var drive = SoftClipDistortion(gain: gain, mix: 1)
        drive.prepare(Self.spec)
        let input: [Float] = (0...2000).map { Float($0) / 1000 - 1 }
        let output = EffectsTestSignal.render(&drive, input)
        let g = pow(10, Double(gain) / 20)
        for (x, y) in zip(input, output) {
            let u = min(max(g * Double(x), -1), 1)
            let expected = 1.5 * u - 0.5 * u * u * u
            #expect(abs(Double(y) - expected) < 1e-5)
            #expect(abs(y) <= 1)
        }
    }

    @Test func curveIsSmoothAtTheKnee() {
        // Value ±1 and slope 0 at |u| = 1, slope 1.5 at 0.
        #expect(SoftClipDistortion.clip(1) == 1)
        #expect(SoftClipDistortion.clip(-3) == -1)
        let h: Float = 1e-3
        #expect(abs((SoftClipDistortion.clip(1) - SoftClipDistortion.clip(1 - h)) / h) < 0.01)
        #expect(abs((SoftClipDistortion.clip(h) - SoftClipDistortion.clip(-h)) / (2 * h) - 1.5) < 1e-3)
    }

    @Test func mixBlendsDryAndWet() {
        var drive = SoftClipDistortion(gain: 20, mix: 0.25)
        drive.prepare(Self.spec)
        let y = drive.processSample(0.5)  // wet clips to 1
        #expect(abs(y - (0.75 * 0.5 + 0.25 * 1)) < 1e-5)
    }
}

@Suite struct DecimatorTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512)

    @Test(arguments: [Float(1), 2, 3, 4, 8, 12, 16])
    func bitDepthQuantisesToTheRightStep(bits: Float) {
        var crusher = Decimator(reductionFactor: 1, bitDepth: bits, mix: 1)
        crusher.prepare(Self.spec)
        let input: [Float] = (0...20_000).map { Float($0) / 10_000 - 1 }
        let output = EffectsTestSignal.render(&crusher, input)
        let step = pow(2, 1 - bits)
        for (x, y) in zip(input, output) {
            let levels = y / step
            #expect(levels == levels.rounded(), "output is a multiple of the step")
            #expect(abs(y - x) <= step / 2 + 1e-6)
        }
        // A full-scale ramp hits every level of the mid-tread quantiser: 2^bits + 1.
        if bits <= 12 {
            #expect(Set(output).count == Int(pow(2, bits)) + 1)
        }
        #expect(crusher.processSample(0) == 0, "mid-tread: silence stays silent")
    }

    @Test func twentyFourBitsIsTransparentWithinTheStep() {
        var crusher = Decimator(reductionFactor: 1, bitDepth: 24, mix: 1)
        crusher.prepare(Self.spec)
        let input = EffectsTestSignal.sine(frequency: 997, sampleRate: 48_000, count: 4_800, amplitude: 0.9)
        let output = EffectsTestSignal.render(&crusher, input)
        for (x, y) in zip(input, output) { #expect(abs(x - y) <= Float(pow(2.0, -24.0)) + 1e-9) }
    }

    /// Runs of identical output samples in a ramp through the sample-and-hold.
    static func holdLengths(factor: Float, count: Int = 4_000) -> [Int] {
        var crusher = Decimator(reductionFactor: factor, bitDepth: 24, mix: 1)
        crusher.prepare(spec)
        let input: [Float] = (0..<count).map { Float($0) / Float(count) }
        let output = EffectsTestSignal.render(&crusher, input)
        var runs: [Int] = []
        var run = 1
        for i in 1..<output.count {
            if output[i] == output[i - 1] { run += 1 } else { runs.append(run); run = 1 }
        }
        return runs  // the last, possibly partial, run is left out
    }

    @Test(arguments: [Float(1), 2, 4, 7, 32])
    func integerFactorsHoldExactly(factor: Float) {
        let runs = Self.holdLengths(factor: factor)
        #expect(!runs.isEmpty)
        #expect(runs.allSatisfy { $0 == Int(factor) })
    }

    @Test func fractionalFactorsAlternateAndAverageTheFactor() {
        let runs = Self.holdLengths(factor: 2.5)
        #expect(Set(runs) == [2, 3])
        let mean = Double(runs.reduce(0, +)) / Double(runs.count)
        #expect(abs(mean - 2.5) < 0.01)
        let thirds = Self.holdLengths(factor: 10.0 / 3.0)
        #expect(Set(thirds) == [3, 4])
    }

    @Test func targetSampleRateSetsTheFactor() {
        var crusher = Decimator()
        crusher.prepare(Self.spec)
        crusher.targetSampleRate = 12_000
        #expect(crusher.reductionFactor == 4)
        crusher.targetSampleRate = 1
        #expect(crusher.reductionFactor == Decimator.maximumReductionFactor)
    }

    @Test func mixBlends() {
        var crusher = Decimator(reductionFactor: 1, bitDepth: 1, mix: 0.5)
        crusher.prepare(Self.spec)
        #expect(abs(crusher.processSample(0.4) - 0.2) < 1e-6)  // wet rounds 0.4 to 0
    }
}
