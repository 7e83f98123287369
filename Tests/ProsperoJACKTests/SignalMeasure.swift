import Foundation

/// Measurements of recorded test signals, from first principles.
enum SignalMeasure {
    /// Frequency in Hz from the spacing of rising zero crossings, each located by linear interpolation.
    static func frequency(of samples: [Float], sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for i in 1..<samples.count where samples[i - 1] < 0 && samples[i] >= 0 {
            let a = Double(samples[i - 1]), b = Double(samples[i])
            crossings.append(Double(i - 1) + (-a) / (b - a))
        }
        guard crossings.count > 2, let first = crossings.first, let last = crossings.last else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (last - first)
    }

    /// The peak level in dBFS of a sine, from its RMS (peak = RMS·√2): robust to where the peaks fall.
    static func sinePeakDBFS(_ samples: [Float]) -> Double {
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        return 20 * log10((meanSquare * 2).squareRoot())
    }
}
