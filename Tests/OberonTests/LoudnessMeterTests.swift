import Foundation
import Oberon
import Testing

/// EBU Tech 3341 (loudness) and Tech 3342 (loudness range) cases, generated here as the documents
/// describe them: stereo 1 kHz sines, level = the peak dBFS of each channel.
@Suite struct LoudnessMeterTests {
    /// Feeds a stereo signal (same on both channels) in 4 800-frame blocks, calling `probe` after each.
    static func measure(_ signal: [Float], sampleRate: Double = 48_000, probe: (LoudnessMeter, Int) -> Void = { _, _ in }) -> LoudnessMeter {
        let meter = LoudnessMeter(sampleRate: sampleRate, channelCount: 2)
        signal.withUnsafeBufferPointer { samples in
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + 4_800)
                let block = UnsafeBufferPointer(rebasing: samples[start..<end])
                meter.process(left: block, right: block)
                start = end
                probe(meter, start)
            }
        }
        return meter
    }

    struct Case3341: Sendable, CustomTestStringConvertible {
        let number: Int, levels: [Double], seconds: [Double]
        /// A time (s) inside the −23 dBFS part with 3 s of it behind.
        let steadyAt: Double
        var testDescription: String { "EBU Tech 3341 case \(number)" }
    }

    static let cases3341 = [
        Case3341(number: 1, levels: [-23], seconds: [20], steadyAt: 10),
        Case3341(number: 2, levels: [-33], seconds: [20], steadyAt: 10),
        Case3341(number: 3, levels: [-36, -23, -36], seconds: [10, 60, 10], steadyAt: 40),
        Case3341(number: 4, levels: [-72, -36, -23, -36, -72], seconds: [10, 10, 60, 10, 10], steadyAt: 50),
        Case3341(number: 5, levels: [-26, -20, -26], seconds: [20, 20.1, 20], steadyAt: 30),
    ]

    /// Integrated −23.0 LUFS (case 2: −33.0) ±0.1 LU; momentary and short-term on the steady part read
    /// the steady level: a stereo sine of peak P dBFS at 1 kHz is P − 3.01 + 3.01 (two channels) + 0.69
    /// (K-weighting's gain at 1 kHz) − 0.691 = P LUFS.
    @Test(arguments: cases3341)
    func tech3341(_ c: Case3341) {
        let signal = OberonTestSupport.sineSegments(levels: c.levels, seconds: c.seconds)
        var momentary = -Double.infinity, shortTerm = -Double.infinity
        let steadyFrame = Int(c.steadyAt * 48_000)
        let meter = Self.measure(signal) { meter, frame in
            if frame == steadyFrame {
                momentary = meter.momentaryLoudness
                shortTerm = meter.shortTermLoudness
            }
        }
        let expected = c.number == 2 ? -33.0 : -23.0
        let steady = c.number == 2 ? -33.0 : c.number == 5 ? -20.0 : -23.0
        let integrated = try! #require(meter.integratedLoudness)
        print("3341 case \(c.number): integrated \(integrated), momentary \(momentary), short-term \(shortTerm)")
        #expect(abs(integrated - expected) <= 0.1)
        #expect(abs(momentary - steady) <= 0.1)
        #expect(abs(shortTerm - steady) <= 0.1)
    }

    struct Case3342: Sendable, CustomTestStringConvertible {
        let number: Int, levels: [Double], expected: Double
        var testDescription: String { "EBU Tech 3342 case \(number)" }
    }

    static let cases3342 = [
        Case3342(number: 1, levels: [-20, -30], expected: 10),
        Case3342(number: 2, levels: [-20, -15], expected: 5),
        Case3342(number: 3, levels: [-40, -20], expected: 20),
        Case3342(number: 4, levels: [-50, -35, -20, -35, -50], expected: 15),
    ]

    @Test(arguments: cases3342)
    func tech3342(_ c: Case3342) {
        let signal = OberonTestSupport.sineSegments(levels: c.levels, seconds: c.levels.map { _ in 20 })
        let meter = Self.measure(signal)
        let range = try! #require(meter.loudnessRange)
        print("3342 case \(c.number): LRA \(range) LU")
        #expect(abs(range - c.expected) <= 1)
    }

    /// The K-weighting is derived for the sample rate: the same programme at 44.1 kHz reads the same.
    @Test(arguments: [44_100.0, 96_000.0, 22_050.0])
    func otherSampleRates(_ rate: Double) {
        let signal = OberonTestSupport.sineSegments(levels: [-23], seconds: [10], sampleRate: rate)
        let meter = Self.measure(signal, sampleRate: rate)
        let integrated = try! #require(meter.integratedLoudness)
        #expect(abs(integrated + 23) <= 0.1, "\(rate) Hz: \(integrated)")
    }

    /// The K-weighting's coefficients at 48 kHz equal those tabulated in ITU-R BS.1770-4 (tables 1 and 2).
    @Test func kWeightingMatchesTheTabulatedCoefficientsAt48kHz() {
        let filter = KWeightingFilter(sampleRate: 48_000)
        let shelf = [filter.shelf.b0, filter.shelf.b1, filter.shelf.b2, filter.shelf.a1, filter.shelf.a2]
        let table1 = [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585]
        let pass = [filter.highPass.b0, filter.highPass.b1, filter.highPass.b2, filter.highPass.a1, filter.highPass.a2]
        let table2 = [1.0, -2.0, 1.0, -1.99004745483398, 0.99007225036621]
        for (a, b) in zip(shelf + pass, table1 + table2) { #expect(abs(a - b) < 1e-7) }
    }

    /// Silence leaves nothing to report: no block passes the absolute gate.
    @Test func silenceHasNoLoudness() {
        let meter = Self.measure([Float](repeating: 0, count: 48_000 * 5))
        #expect(meter.integratedLoudness == nil)
        #expect(meter.loudnessRange == nil)
        #expect(meter.shortTermMaximum == nil)
    }
}
