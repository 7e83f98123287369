import Foundation

/// A small real-signal spectrum analyser for the spectral tests: radix-2 FFT in Double, written here
/// so expected values come from the definition of the DFT, not from the code under test.
enum Spectrum {
    /// In-place iterative radix-2 complex FFT. `re.count` must be a power of two.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        precondition(n > 0 && n & (n - 1) == 0 && im.count == n)
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            let wr = cos(angle), wi = sin(angle)
            var start = 0
            while start < n {
                var cr = 1.0, ci = 0.0
                for k in 0..<(length / 2) {
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * cr - im[b] * ci
                    let ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    let ncr = cr * wr - ci * wi
                    ci = cr * wi + ci * wr
                    cr = ncr
                }
                start += length
            }
            length <<= 1
        }
    }

    /// 4-term Blackman–Harris window (side lobes −92 dB, main lobe ±4 bins).
    static func blackmanHarris(_ n: Int) -> [Double] {
        (0..<n).map { i in
            let x = 2 * Double.pi * Double(i) / Double(n)
            return 0.35875 - 0.48829 * cos(x) + 0.14128 * cos(2 * x) - 0.01168 * cos(3 * x)
        }
    }

    /// Power spectrum |X[k]|² for k = 0…n/2 of the windowed signal.
    static func powerSpectrum(_ signal: [Float]) -> [Double] {
        let n = signal.count
        let w = blackmanHarris(n)
        var re = (0..<n).map { Double(signal[$0]) * w[$0] }
        var im = [Double](repeating: 0, count: n)
        fft(&re, &im)
        return (0...(n / 2)).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }

    /// Energy at the harmonics of `fundamental` versus energy elsewhere (aliases and noise).
    ///
    /// A bin counts as harmonic when it lies within `halfWidth` bins of a harmonic below Nyquist;
    /// bins within `halfWidth` of DC are ignored. Only bins below `bandLimit` Hz are counted on both sides.
    /// - Returns: 10·log10(inharmonic / harmonic) in dB (negative = aliases below harmonics).
    static func aliasToHarmonicRatio(_ signal: [Float], fundamental: Double, sampleRate: Double,
                                     bandLimit: Double? = nil, halfWidth: Int = 8) -> Double {
        let power = powerSpectrum(signal)
        let n = signal.count
        let binHz = sampleRate / Double(n)
        var harmonic = 0.0, inharmonic = 0.0
        let limit = bandLimit ?? sampleRate / 2
        for k in (halfWidth + 1)..<power.count {
            let f = Double(k) * binHz
            if f > limit { break }
            let m = (f / fundamental).rounded()
            let nearest = m * fundamental
            let isHarmonic = m >= 1 && nearest < sampleRate / 2 && abs(f - nearest) <= Double(halfWidth) * binHz
            if isHarmonic { harmonic += power[k] } else { inharmonic += power[k] }
        }
        return 10 * log10(inharmonic / harmonic)
    }

    /// Magnitude of the DTFT of `signal` at `frequency` (Hz), by direct summation (no window).
    static func magnitude(of signal: [Float], at frequency: Double, sampleRate: Double) -> Double {
        var re = 0.0, im = 0.0
        let w = 2 * Double.pi * frequency / sampleRate
        for (i, x) in signal.enumerated() {
            re += Double(x) * cos(w * Double(i))
            im -= Double(x) * sin(w * Double(i))
        }
        return (re * re + im * im).squareRoot()
    }
}
