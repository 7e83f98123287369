import Ariel
import Foundation
import HiSynth
import ProsperoTestSupport
import Touchstone

/// Rendering and measuring helpers for the HiSynth engine tests (expected values come from the spec's
/// formulas and the RBJ cookbook, computed in the tests, never from the engine's code).
enum HiSynthRig {
    static let sampleRate = 44_100.0
    static let block = 256

    /// Settings that leave a voice's sound measurable: sine layer 1 at `level`, layer 2 silent, filters
    /// wide open (LP 22 050, HP 0), envelope A 0 D 0.5 S 1 R 0.05, every LFO and effect off.
    static func plain(level: Float = 0.5, waveform: HiSynthWaveform = .sine) -> HiSynthSettings {
        var s = HiSynthSettings()
        s.layer1 = .init(waveform: waveform, level: level, pitch: 0)
        s.layer2 = .init(waveform: .sine, level: 0, pitch: 0)
        s.lowPass = .init(cutoff: 22_050, resonance: 0)
        s.highPass = .init(cutoff: 0, resonance: 0)
        s.effects.reverbOn = false
        return s
    }

    /// Renders `seconds` through `EngineHost` with commands at seconds (each lands on its exact frame).
    static func render(
        _ settings: HiSynthSettings, seconds: Double, sampleRate: Double = sampleRate, block: Int = block,
        _ commands: [(Double, HiSynthEngine.Command)]
    ) -> (left: [Float], right: [Float], engine: HiSynthEngine) {
        let engine = HiSynthEngine(settings: settings)
        let (left, right) = EngineRender.render(engine, seconds: seconds, sampleRate: sampleRate, block: block, commands: commands)
        return (left, right, engine)
    }

    /// Amplitude of the component at `frequency` in `signal[range]` (Goertzel, Hann window); a sine of
    /// amplitude a reads a.
    static func tone(_ signal: [Float], _ frequency: Double, _ range: Range<Int>, sampleRate: Double = sampleRate) -> Double {
        SignalMeasure.toneAmplitude(signal, at: frequency, in: range, sampleRate: sampleRate)
    }

    static func rms(_ signal: [Float], _ range: Range<Int>) -> Double { SignalMeasure.rms(signal, range) }

    static func peak(_ signal: [Float], _ range: Range<Int>) -> Float { SignalMeasure.peak(signal, range) }

    /// Times (in samples, fractional) of the rising zero crossings in `signal[range]`.
    static func risingCrossings(_ signal: [Float], _ range: Range<Int>) -> [Double] {
        var result: [Double] = []
        var i = range.lowerBound + 1
        while i < range.upperBound {
            let a = Double(signal[i - 1]), b = Double(signal[i])
            if a < 0 && b >= 0 { result.append(Double(i - 1) + a / (a - b)) }
            i += 1
        }
        return result
    }

    /// Mean frequency over `range` from rising zero crossings (first to last), Hz.
    static func frequency(_ signal: [Float], _ range: Range<Int>, sampleRate: Double = sampleRate) -> Double {
        let c = risingCrossings(signal, range)
        guard c.count > 2 else { return 0 }
        return Double(c.count - 1) / (c.last! - c.first!) * sampleRate
    }

    /// Instantaneous frequency per carrier period: (time in seconds, Hz) from consecutive rising crossings.
    static func frequencyTrack(_ signal: [Float], _ range: Range<Int>, sampleRate: Double = sampleRate) -> [(Double, Double)] {
        let c = risingCrossings(signal, range)
        guard c.count > 1 else { return [] }
        return (1..<c.count).map { ((c[$0] + c[$0 - 1]) / 2 / sampleRate, sampleRate / (c[$0] - c[$0 - 1])) }
    }

    /// Peak amplitude per window of `window` samples: (centre time in seconds, peak).
    static func envelope(_ signal: [Float], window: Int, from start: Int = 0, sampleRate: Double = sampleRate) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        var i = start
        while i + window <= signal.count {
            out.append(((Double(i) + Double(window) / 2) / sampleRate, Double(peak(signal, i..<(i + window)))))
            i += window
        }
        return out
    }

    /// Rate (Hz) of a slowly varying series: rising crossings of its mean, first to last.
    static func modulationRate(_ series: [(Double, Double)]) -> Double {
        guard series.count > 4 else { return 0 }
        let mean = series.map(\.1).reduce(0, +) / Double(series.count)
        var crossings: [Double] = []
        for k in 1..<series.count {
            let (t0, a) = series[k - 1], (t1, b) = series[k]
            if a < mean && b >= mean { crossings.append(t0 + (mean - a) / (b - a) * (t1 - t0)) }
        }
        guard crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / (crossings.last! - crossings.first!)
    }

    /// First time (seconds) at or after `from` where the series reaches `level` going up (or down).
    static func crossingTime(_ series: [(Double, Double)], level: Double, rising: Bool, from: Double = 0) -> Double? {
        for k in 1..<series.count where series[k].0 >= from {
            let (t0, a) = series[k - 1], (t1, b) = series[k]
            if rising ? (a < level && b >= level) : (a > level && b <= level) {
                return t0 + (level - a) / (b - a) * (t1 - t0)
            }
        }
        return nil
    }

    /// The A4 = 440 Hz equal-tempered frequency of a MIDI note.
    static func hz(_ note: Double) -> Double { 440 * pow(2, (note - 69) / 12) }
}
