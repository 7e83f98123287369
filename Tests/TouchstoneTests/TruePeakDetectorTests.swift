import Foundation
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
}
