import Foundation

/// Measurements the audio tests take of rendered signals, written from the textbook definitions
/// (Goertzel's recurrence, RMS, peak), independently of the DSP under test.
public enum SignalMeasure {
    /// Amplitude of the component at `frequency` Hz in `signal[range]` (Goertzel with a Hann window),
    /// scaled so that a sine of amplitude a reads a.
    public static func toneAmplitude(_ signal: [Float], at frequency: Double, in range: Range<Int>, sampleRate: Double) -> Double {
        let n = range.count
        let w = 2 * Double.pi * frequency / sampleRate
        let coeff = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0, windowSum = 0.0
        for (k, i) in range.enumerated() {
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(n - 1))
            windowSum += hann
            let s0 = Double(signal[i]) * hann + coeff * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = max(0, s1 * s1 + s2 * s2 - coeff * s1 * s2)
        return 2 * power.squareRoot() / windowSum
    }

    /// Root mean square of `signal[range]` (0 for an empty range).
    public static func rms(_ signal: [Float], _ range: Range<Int>) -> Double {
        var sum = 0.0
        for i in range { sum += Double(signal[i]) * Double(signal[i]) }
        return (sum / Double(max(range.count, 1))).squareRoot()
    }

    /// Largest magnitude in `signal[range]` (the whole signal when nil).
    public static func peak(_ signal: [Float], _ range: Range<Int>? = nil) -> Float {
        var p: Float = 0
        for i in range ?? signal.indices { p = max(p, abs(signal[i])) }
        return p
    }

    /// The longest stretch of `signal[start...]` with no dropout in it: a dropout is `gap` or more consecutive
    /// samples at or below `floor` in magnitude (a sound server that missed a cycle writes silence there; a tone
    /// of a few hundred hertz at any audible level never stays that low for 24 samples at 48 kHz).
    public static func longestUnbroken(_ signal: [Float], from start: Int = 0, gap: Int = 24, floor: Float = 1e-4) -> Range<Int> {
        var best = start..<start
        var runStart = start, quiet = 0
        for i in start..<max(start, signal.count) {
            if abs(signal[i]) <= floor {
                quiet += 1
                if quiet == gap {
                    let end = i + 1 - gap
                    if end - runStart > best.count { best = runStart..<end }
                }
            } else {
                if quiet >= gap { runStart = i }
                quiet = 0
            }
        }
        let end = quiet >= gap ? signal.count - quiet : signal.count
        if end - runStart > best.count { best = runStart..<end }
        return best
    }
}
