import Foundation

/// Analysis windows for spectra: the trade between main-lobe width and side-lobe level.
public enum WindowFunction: String, Sendable, CaseIterable, Hashable {
    /// No window: narrowest main lobe, −13 dB side lobes.
    case rectangular
    /// Hann (raised cosine): −31 dB side lobes; the usual choice.
    case hann
    /// Hamming: −43 dB nearest side lobe.
    case hamming
    /// Blackman (0.42, 0.5, 0.08): −58 dB side lobes.
    case blackman
    /// 4-term Blackman-Harris: −92 dB side lobes, for weak tones beside strong ones.
    case blackmanHarris
    /// Flat top (5 terms): amplitude exact to about 0.01 dB wherever a tone falls between bins.
    case flatTop

    /// The window's N values (periodic form, for spectral analysis).
    public func values(count: Int) -> [Double] {
        let coefficients: [Double]
        switch self {
        case .rectangular: return [Double](repeating: 1, count: count)
        case .hann: coefficients = [0.5, 0.5]
        case .hamming: coefficients = [0.54, 0.46]
        case .blackman: coefficients = [0.42, 0.5, 0.08]
        case .blackmanHarris: coefficients = [0.35875, 0.48829, 0.14128, 0.01168]
        case .flatTop: coefficients = [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368]
        }
        return (0..<count).map { n in
            var value = 0.0, sign = 1.0
            for (k, a) in coefficients.enumerated() {
                value += sign * a * cos(2 * Double.pi * Double(k * n) / Double(count))
                sign = -sign
            }
            return value
        }
    }
}
