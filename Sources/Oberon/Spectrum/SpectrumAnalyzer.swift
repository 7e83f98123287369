import Foundation
import Touchstone

/// Magnitude spectrum of a block of samples: window, FFT, and scaling so that a sine of amplitude A
/// centred on a bin reads 20·log10(A) dBFS (the window's coherent gain is divided out, and the
/// energy of the negative frequencies is folded onto the positive ones).
///
/// Buffers are allocated at `init`; `magnitudes(of:into:)` never allocates.
public final class SpectrumAnalyzer {
    /// FFT length (a power of two, 16…65 536).
    public let size: Int
    /// The analysis window.
    public let window: WindowFunction
    private let fft: FFT<Double>
    private let windowValues: UnsafeMutablePointer<Double>
    private let real: UnsafeMutablePointer<Double>
    private let imaginary: UnsafeMutablePointer<Double>
    private let scale: Double

    /// Bins produced: size / 2 + 1 (DC … Nyquist).
    public var binCount: Int { size / 2 + 1 }

    public init(size: Int, window: WindowFunction = .hann) {
        precondition(size >= 16, "spectrum size must be at least 16")
        self.size = size
        self.window = window
        fft = FFT(size: size)
        let values = window.values(count: size)
        windowValues = .allocate(capacity: size)
        windowValues.initialize(from: values, count: size)
        real = .allocate(capacity: size)
        imaginary = .allocate(capacity: size)
        scale = 2 / values.reduce(0, +)
    }

    deinit {
        windowValues.deallocate()
        real.deallocate()
        imaginary.deallocate()
    }

    /// Frequency of bin `k` in Hz at `sampleRate`.
    public func frequency(ofBin k: Int, sampleRate: Double) -> Double { Double(k) * sampleRate / Double(size) }

    /// Writes the linear amplitude of bins 0…size/2 of the first `size` samples of `samples` into
    /// `amplitudes` (at least `binCount` long). Fewer samples are zero-padded.
    public func magnitudes(of samples: UnsafeBufferPointer<Float>, into amplitudes: UnsafeMutableBufferPointer<Float>) {
        precondition(amplitudes.count >= binCount, "room for size/2 + 1 bins")
        let available = min(samples.count, size)
        for n in 0..<size {
            let x = n < available ? samples[n] : 0
            real[n] = (x.isFinite ? Double(x) : 0) * windowValues[n]
            imaginary[n] = 0
        }
        fft.forward(real: real, imaginary: imaginary)
        for k in 0..<binCount {
            let edge = k == 0 || k == size / 2
            let magnitude = (real[k] * real[k] + imaginary[k] * imaginary[k]).squareRoot() * scale * (edge ? 0.5 : 1)
            amplitudes[k] = Float(magnitude)
        }
    }

    /// Convenience: the spectrum in dBFS (floored at −200 dB), allocating the result.
    public func decibels(of samples: [Float]) -> [Float] {
        var out = [Float](repeating: 0, count: binCount)
        samples.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { magnitudes(of: input, into: $0) }
        }
        return out.map { 20 * log10(max($0, 1e-10)) }
    }
}
