import Ariel
import Foundation
import Hecate
import Horatio
import ProsperoTestSupport
import Touchstone

/// Renders an engine through `EngineHost` with commands at given seconds; returns left and right.
func renderEngine(
    _ engine: DroneSynthEngine = DroneSynthEngine(), seconds: Double, sampleRate: Double = 48_000, block: Int = 256,
    commands: [(Double, DroneSynthEngine.Command)] = []
) -> (left: [Float], right: [Float]) {
    EngineRender.render(engine, seconds: seconds, sampleRate: sampleRate, block: block, commands: commands)
}

/// Amplitude of the component at `frequency` Hz in `signal[range]` (Goertzel with a Hann window),
/// scaled so a full-scale sine reads about 1.
func toneAmplitude(_ signal: [Float], at frequency: Double, in range: Range<Int>, sampleRate: Double = 48_000) -> Double {
    SignalMeasure.toneAmplitude(signal, at: frequency, in: range, sampleRate: sampleRate)
}

/// Spectral centroid (Hz) of `signal[range]` through a naive DFT on a coarse grid.
func spectralCentroid(_ signal: [Float], in range: Range<Int>, sampleRate: Double = 48_000, maxHz: Double = 12_000, stepHz: Double = 50) -> Double {
    var weighted = 0.0, total = 0.0
    var f = stepHz
    while f <= maxHz {
        let a = toneAmplitude(signal, at: f, in: range, sampleRate: sampleRate)
        weighted += a * a * f
        total += a * a
        f += stepHz
    }
    return total > 0 ? weighted / total : 0
}

func rms(_ signal: [Float], _ range: Range<Int>) -> Double { SignalMeasure.rms(signal, range) }

func peak(_ signal: [Float], _ range: Range<Int>? = nil) -> Float { SignalMeasure.peak(signal, range) }

func decibels(_ x: Double) -> Double { 20 * log10(max(x, 1e-12)) }

/// Range of samples from `start` to `end` seconds.
func seconds(_ start: Double, _ end: Double, sampleRate: Double = 48_000) -> Range<Int> {
    Int(start * sampleRate)..<Int(end * sampleRate)
}

/// A dry, steady voice for measuring: no reverb, no breathing, no formant colouring, open filter.
func measuringPreset(_ base: VoicePreset = SoundPack.cathedral.preset) -> VoicePreset {
    var p = base
    p.reverbMix = 0
    p.breathDepth = 0
    p.formantDryMix = 1
    p.formantF1Mix = 0
    p.formantF2Mix = 0
    p.droneLevel = 0
    p.subLevel = 0
    return p
}

/// Frequency in Hz of a chord tone for a key and degree, as the engine voices it.
func toneFrequency(_ tone: ChordTone, key: MusicalKey = .c, degree: NashvilleDegree = .one) -> Double {
    let v = DroneVoicing(key: key, degree: degree)
    return DroneVoicing.frequency(v.tones[ChordTone.allCases.firstIndex(of: tone)!])
}
