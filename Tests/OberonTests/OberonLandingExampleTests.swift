import Foundation
import Oberon
import Testing

@Suite("Oberon's landing example")
struct OberonLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // Three seconds of 1 kHz at −20 dBFS peak in both channels, at 48 kHz.
        let sampleRate = 48_000.0
        let tone = (0..<144_000).map { Float(0.1 * sin(2 * Double.pi * 1_000 * Double($0) / sampleRate)) }
        let loudness = LoudnessMeter(sampleRate: sampleRate, channelCount: 2)
        let peaks = TruePeakMeter(channelCount: 2)
        tone.withUnsafeBufferPointer { samples in
            loudness.process(left: samples, right: samples)
            peaks.process(channel: 0, samples)
            peaks.process(channel: 1, samples)
        }
        // The last few samples wait for newer ones; finish treats the end as silence.
        peaks.finish()
        let integrated = loudness.integratedLoudness

        // A stereo sine of peak amplitude A reads 20·log10(A) LUFS: −20 here.
        let lufs = try #require(integrated)
        #expect(abs(lufs - -20) < 0.2, "\(lufs) LUFS")
        #expect(abs(peaks.maximumDecibels - -20) < 0.1, "\(peaks.maximumDecibels) dBTP")
    }
}
