import Ariel
import Foundation
import Hecate
import Horatio
import Touchstone

/// Renders an engine through `EngineHost` with commands at given seconds; returns left and right.
func renderEngine(
    _ engine: DroneSynthEngine = DroneSynthEngine(), seconds: Double, sampleRate: Double = 48_000, block: Int = 256,
    commands: [(Double, DroneSynthEngine.Command)] = []
) -> (left: [Float], right: [Float]) {
    let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: block, channelCount: 2))
    let total = Int(seconds * sampleRate)
    var left = [Float](repeating: 0, count: total)
    var right = [Float](repeating: 0, count: total)
    let scheduled = commands.map { (Int(($0.0 * sampleRate).rounded()), $0.1) }.sorted { $0.0 < $1.0 }
    var next = 0
    var position = 0
    left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { r in
            while position < total {
                while next < scheduled.count && scheduled[next].0 <= position {
                    host.send(scheduled[next].1)
                    next += 1
                }
                var end = min(total, position + block)
                if next < scheduled.count { end = min(end, max(position + 1, scheduled[next].0)) }
                host.process(
                    left: UnsafeMutableBufferPointer(rebasing: l[position..<end]),
                    right: UnsafeMutableBufferPointer(rebasing: r[position..<end]))
                position = end
            }
        }
    }
    return (left, right)
}

/// Amplitude of the component at `frequency` Hz in `signal[range]` (Goertzel with a Hann window),
/// scaled so a full-scale sine reads about 1.
func toneAmplitude(_ signal: [Float], at frequency: Double, in range: Range<Int>, sampleRate: Double = 48_000) -> Double {
    let n = range.count
    let w = 2 * Double.pi * frequency / sampleRate
    let coeff = 2 * cos(w)
    var s1 = 0.0, s2 = 0.0
    var windowSum = 0.0
    for (k, i) in range.enumerated() {
        let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(n - 1))
        windowSum += hann
        let s0 = Double(signal[i]) * hann + coeff * s1 - s2
        s2 = s1
        s1 = s0
    }
    let power = s1 * s1 + s2 * s2 - coeff * s1 * s2
    return 2 * power.squareRoot() / windowSum
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

func rms(_ signal: [Float], _ range: Range<Int>) -> Double {
    var sum = 0.0
    for i in range { sum += Double(signal[i]) * Double(signal[i]) }
    return (sum / Double(max(range.count, 1))).squareRoot()
}

func peak(_ signal: [Float], _ range: Range<Int>? = nil) -> Float {
    var p: Float = 0
    for i in range ?? signal.indices { p = max(p, abs(signal[i])) }
    return p
}

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
