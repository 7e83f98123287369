import Foundation
import Oberon
import Testing

/// True peak against the analytic peak of sine tones (BS.1770-4 Annex 2 meters must read within
/// +0.2/−0.4 dB of it): near fs/4 and near Nyquist, at phases that put the crest between samples.
@Suite struct TruePeakMeterTests {
    static func measure(frequency: Double, phase: Double, amplitude: Double, sampleRate: Double = 48_000, count: Int = 4_800) -> (truePeak: Double, samplePeak: Double) {
        let x = (0..<count).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate + phase)) }
        let meter = TruePeakMeter(channelCount: 1)
        x.withUnsafeBufferPointer { meter.process(channel: 0, $0) }
        meter.finish()
        return (meter.maximumDecibels, 20 * log10(Double(x.map(abs).max()!)))
    }

    struct Tone: Sendable, CustomTestStringConvertible {
        let frequency: Double, phase: Double
        var testDescription: String { "\(frequency) Hz, phase \(phase)" }
    }

    /// fs/4 at 45°: every sample sits at ±0.707 of the crest (sample peak −3.01 dB below it); tones
    /// near Nyquist whose samples never reach the crest closely.
    @Test(arguments: [
        Tone(frequency: 12_000, phase: Double.pi / 4), Tone(frequency: 11_000, phase: 0.3),
        Tone(frequency: 19_000, phase: 0.2), Tone(frequency: 20_000, phase: Double.pi / 12), Tone(frequency: 21_000, phase: 0.1),
    ])
    func readsTheAnalyticPeak(_ tone: Tone) {
        let amplitude = 0.5  // −6.02 dBFS analytic peak
        let analytic = 20 * log10(amplitude)
        let (truePeak, samplePeak) = Self.measure(frequency: tone.frequency, phase: tone.phase, amplitude: amplitude)
        print("true peak of \(tone.frequency) Hz: \(truePeak - analytic) dB from analytic (sample peak \(samplePeak - analytic) dB)")
        #expect(truePeak - analytic <= 0.2)
        #expect(truePeak - analytic >= -0.4)
    }

    /// A short burst near Nyquist (20 ms) still reads its crest, and the sample peak under-reads it,
    /// so the test can tell the two apart.
    @Test func fsOverFourAt45DegreesIsThreeDecibelsAboveItsSamples() {
        let (truePeak, samplePeak) = Self.measure(frequency: 12_000, phase: Double.pi / 4, amplitude: 1, count: 960)
        #expect(abs(samplePeak + 3.01) < 0.01)
        #expect(abs(truePeak) < 0.2)
    }

    /// Silence reads −∞ (the report turns that into nil) and never NaN.
    @Test func silenceReadsMinusInfinity() {
        let meter = TruePeakMeter(channelCount: 2)
        let zeros = [Float](repeating: 0, count: 1_000)
        zeros.withUnsafeBufferPointer { meter.process(channel: 0, $0); meter.process(channel: 1, $0) }
        meter.finish()
        #expect(meter.maximumDecibels == -.infinity)
    }
}
