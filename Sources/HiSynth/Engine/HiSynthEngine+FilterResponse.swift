import Foundation

extension HiSynthEngine {
    /// The magnitude response in dB of the engine's low-pass then high-pass at `frequencies` (Hz), for
    /// filters running at the given cutoffs (Hz; the live, LFO-modulated ones of `HiSynthSnapshot`) and
    /// resonances (dB), at `sampleRate`.
    ///
    /// Computed from the coefficients the filter stage runs with: cutoffs clamped as the stage clamps
    /// them (10 Hz … min(22 050 Hz, 0.49·fs)), Q = 10^(dB/20) clamped to the kernel's 0.1…50, and the
    /// RBJ biquad of that cutoff and Q (the response the stage's state-variable filters realise:
    /// both are the bilinear transform of the same analog prototype, prewarped at the cutoff).
    public static func filterResponse(
        lowCutoff: Float, lowResonance: Float, highCutoff: Float, highResonance: Float,
        sampleRate: Double, frequencies: [Double]
    ) -> [Double] {
        let top = min(HiSynthFilterStage.maximumCutoff, Float(0.49 * sampleRate))
        func cutoff(_ hz: Float) -> Double {
            Double(hz.isFinite && hz > HiSynthFilterStage.minimumCutoff ? min(hz, top) : HiSynthFilterStage.minimumCutoff)
        }
        func q(_ decibels: Float) -> Double {
            Double(min(max(HiSynthFilterStage.q(resonance: decibels.isFinite ? decibels : 0), 0.1), 50))
        }
        let low = biquad(highPass: false, cutoff: cutoff(lowCutoff), q: q(lowResonance), sampleRate: sampleRate)
        let high = biquad(highPass: true, cutoff: cutoff(highCutoff), q: q(highResonance), sampleRate: sampleRate)
        return frequencies.map { f in
            let w = 2 * Double.pi * min(max(f, 0), sampleRate / 2) / sampleRate
            let power = magnitudeSquared(low, w) * magnitudeSquared(high, w)
            return 10 * log10(max(power, 1e-30))
        }
    }

    /// RBJ cookbook low- or high-pass coefficients (b0, b1, b2, a1, a2), normalised by a0.
    private static func biquad(highPass: Bool, cutoff: Double, q: Double, sampleRate: Double) -> [Double] {
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let cosW = cos(w0), alpha = sin(w0) / (2 * q)
        let a0 = 1 + alpha
        let b0 = (highPass ? (1 + cosW) : (1 - cosW)) / 2
        let b1 = highPass ? -(1 + cosW) : (1 - cosW)
        return [b0 / a0, b1 / a0, b0 / a0, -2 * cosW / a0, (1 - alpha) / a0]
    }

    /// |H(e^{jw})|² of a biquad.
    private static func magnitudeSquared(_ c: [Double], _ w: Double) -> Double {
        let (c1, s1, c2, s2) = (cos(w), -sin(w), cos(2 * w), -sin(2 * w))
        let nr = c[0] + c[1] * c1 + c[2] * c2, ni = c[1] * s1 + c[2] * s2
        let dr = 1 + c[3] * c1 + c[4] * c2, di = c[3] * s1 + c[4] * s2
        return (nr * nr + ni * ni) / max(dr * dr + di * di, 1e-300)
    }
}
