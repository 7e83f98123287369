import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// The limiter's true-peak detector against the analytic peak of sine tones.
@Suite struct TruePeakDetectorTests {
    /// The detector's peak of `count` intervals whose first starts at x[start] (history from x[start − 26]).
    static func detectedPeak(_ x: [Float], start: Int, count: Int) -> Float {
        let detector = TruePeakDetector()
        var history = [Float](repeating: 0, count: count + 64)
        for i in 0..<(count + 52) { history[i] = x[start - 26 + i] }
        var mid = [Float](repeating: 0, count: count + 12)
        var q3 = [Float](repeating: 0, count: count + 12)
        var peaks = [Float](repeating: 0, count: count + 4)
        history.withUnsafeBufferPointer { h in
            detector.halfBand.withUnsafeBufferPointer { hb in
                detector.quarter.withUnsafeBufferPointer { qt in
                    TruePeakDetector.intervalPeaks(history: h.baseAddress!, count: count, halfBand: hb.baseAddress!,
                                                   quarter: qt.baseAddress!, mid: &mid, q3: &q3, peaks: &peaks, combine: false)
                }
            }
        }
        return peaks[..<count].max()!
    }

    /// A unit sine whose crest lies `fraction` of a sample after x[130], at 20 Hz … 22 kHz (48 kHz): the
    /// detected peak of the 64 intervals around the crest is within +0.1/−0.05 dB of 0 dB, wherever the crest falls.
    @Test(arguments: [20.0, 1_000, 6_000, 11_987, 15_000, 18_000, 19_997, 21_000, 22_000])
    func detectsTheAnalyticPeakToTheBandEdge(frequency: Double) {
        for fraction in [0.0, 0.13, 0.25, 0.37, 0.5, 0.77] {
            let crest = 130 + fraction
            let x = (0..<300).map { Float(cos(2 * Double.pi * frequency * (Double($0) - crest) / 48_000)) }
            let peak = 20 * log10(Self.detectedPeak(x, start: 100, count: 64))
            #expect(peak < 0.1 && peak > -0.05, "\(frequency) Hz, crest at +\(fraction): \(peak) dB")
        }
    }

    /// Silence reads 0; a single full-scale sample reads at least its own magnitude (samples are exact).
    @Test func samplesAreReadExactly() {
        var x = [Float](repeating: 0, count: 300)
        #expect(Self.detectedPeak(x, start: 100, count: 64) == 0)
        x[140] = -0.75
        #expect(Self.detectedPeak(x, start: 100, count: 64) >= 0.75)
    }

    /// No estimate exceeds `gainBound` times the largest sample it reads: on the input that drives the half-band
    /// stage hardest (every sample the sign of its tap: the midpoint reaches Σ|h|), on full-scale alternation at
    /// Nyquist and on seeded noise, at unit scale and near the limits of Float. The bound is also not loose
    /// beyond reason: the worst input reaches more than 75 % of it.
    @Test func estimatesStayWithinTheGainBound() {
        let detector = TruePeakDetector()
        let bound = TruePeakDetector.gainBound(halfBand: detector.halfBand, quarter: detector.quarter)
        #expect(bound > 1 && bound < 4, "\(bound)")
        var worst = [Float](repeating: 0, count: 300)
        // The midpoint between x[130] and x[131]: h[k] multiplies x[130 − k] and x[131 + k].
        for k in 0..<TruePeakDetector.halfBandTaps {
            let sign: Float = detector.halfBand[k] < 0 ? -1 : 1
            worst[130 - k] = sign
            worst[131 + k] = sign
        }
        let nyquist = (0..<300).map { Float($0 % 2 == 0 ? 1 : -1) }
        var random = SeededRandom(seed: 0x7B1C_0B0D)
        let noise = (0..<300).map { _ in random.float(-1...1) }
        var reached: Float = 0
        for signal in [worst, nyquist, noise] {
            for scale: Float in [1, 1e-30, 1e10] {
                let x = signal.map { $0 * scale }
                let largest = x.map(abs).max()!
                let peak = Self.detectedPeak(x, start: 100, count: 64)
                #expect(peak <= largest * bound, "peak \(peak) over \(largest) × \(bound)")
                if scale == 1 { reached = max(reached, peak / bound) }
            }
        }
        #expect(reached > 0.75, "the worst input reached \(reached) of the bound")
    }

    /// The two-channel pass gives the same peaks, bit for bit, as one single-channel pass per channel
    /// (left, then right combined into it), on seeded noise up to +40 dBFS and every count from 1 to 64.
    @Test func stereoPassEqualsTwoSingleChannelPasses() {
        let detector = TruePeakDetector()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: seed >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
        let splat = detector.halfBand.map { SIMD4<Float>(repeating: $0) }
        for count in 1...64 {
            let scale: Float = count % 3 == 0 ? 100 : 1
            let left = (0..<(count + 64)).map { _ in random() * scale }
            let right = (0..<(count + 64)).map { _ in random() * scale }
            var mid = [Float](repeating: 0, count: count + 12)
            var midRight = [Float](repeating: 0, count: count + 12)
            var q3 = [Float](repeating: 0, count: count + 12)
            var expected = [Float](repeating: 0, count: count + 4)
            var actual = [Float](repeating: 0, count: count + 4)
            detector.halfBand.withUnsafeBufferPointer { hb in
                detector.quarter.withUnsafeBufferPointer { qt in
                    TruePeakDetector.intervalPeaks(history: left, count: count, halfBand: hb.baseAddress!,
                                                   quarter: qt.baseAddress!, mid: &mid, q3: &q3, peaks: &expected, combine: false)
                    TruePeakDetector.intervalPeaks(history: right, count: count, halfBand: hb.baseAddress!,
                                                   quarter: qt.baseAddress!, mid: &mid, q3: &q3, peaks: &expected, combine: true)
                    splat.withUnsafeBufferPointer { sp in
                        TruePeakDetector.stereoIntervalPeaks(left: left, right: right, count: count,
                                                             halfBandSplat: sp.baseAddress!, quarter: qt.baseAddress!,
                                                             midLeft: &mid, midRight: &midRight, q3: &q3, peaks: &actual)
                    }
                }
            }
            for i in 0..<count {
                #expect(actual[i].bitPattern == expected[i].bitPattern, "count \(count), interval \(i): \(actual[i]) vs \(expected[i])")
            }
        }
    }

    /// The limiter's gated stereo pass: with a gate below 0 it gives `stereoIntervalPeaks`'s peaks bit for bit; with a
    /// gate, every peak above it is exact, the last interval is always exact, and where a bound stands in for a peak,
    /// both the bound and the exact peak are at most the gate (so `peak > ceiling` is decided the same for any ceiling
    /// at or above the gate). Gates from far under to above the signal, so both paths are taken.
    @Test func gatedStereoPassKeepsEveryPeakAboveTheGate() {
        let detector = TruePeakDetector()
        var seed: UInt64 = 0x6A7E_D5E1_0C4B_2F11
        func random() -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: seed >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
        let splat = detector.halfBand.map { SIMD4<Float>(repeating: $0) }
        var gated = 0, exact = 0
        for count in 1...64 {
            // Loud and quiet stretches, so some groups of four fall under the gate and some do not.
            let left = (0..<(count + 64)).map { i in random() * (i % 40 < 20 ? 1 : 0.05) }
            let right = (0..<(count + 64)).map { i in random() * (i % 40 < 20 ? 0.5 : 0.02) }
            for gate: Float in [-1, 0.01, 0.2, 0.6, 0.9, 2, 5] {
                var mid = [Float](repeating: 0, count: count + 12)
                var midRight = [Float](repeating: 0, count: count + 12)
                var q3 = [Float](repeating: 0, count: count + 12)
                var q3Right = [Float](repeating: 0, count: count + 12)
                var expected = [Float](repeating: 0, count: count + 4)
                var actual = [Float](repeating: 0, count: count + 4)
                detector.quarter.withUnsafeBufferPointer { qt in
                    splat.withUnsafeBufferPointer { sp in
                        TruePeakDetector.stereoIntervalPeaks(left: left, right: right, count: count,
                                                             halfBandSplat: sp.baseAddress!, quarter: qt.baseAddress!,
                                                             midLeft: &mid, midRight: &midRight, q3: &q3, peaks: &expected)
                        TruePeakDetector.stereoIntervalPeaks(left: left, right: right, count: count,
                                                             halfBandSplat: sp.baseAddress!, quarter: qt.baseAddress!,
                                                             midLeft: &mid, midRight: &midRight, q3Left: &q3, q3Right: &q3Right,
                                                             peaks: &actual, gate: gate)
                    }
                }
                for i in 0..<count {
                    if actual[i].bitPattern == expected[i].bitPattern {
                        exact += 1
                        continue
                    }
                    gated += 1
                    #expect(gate >= 0 && i < count - 1, "count \(count), gate \(gate), interval \(i): only gated intervals may differ")
                    #expect(actual[i] <= gate && expected[i] <= gate,
                            "count \(count), gate \(gate), interval \(i): bound \(actual[i]), peak \(expected[i])")
                }
            }
        }
        #expect(gated > 1_000 && exact > 1_000, "both paths taken: \(gated) gated, \(exact) exact")
    }
}
