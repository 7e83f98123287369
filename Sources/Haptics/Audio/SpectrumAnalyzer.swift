import Foundation
import Touchstone

/// Magnitude spectrum of a Hann-windowed frame by Touchstone's radix-2 FFT in `Float`; size a power of two.
/// The window and work buffers are made once in `init`, so `analyse` does not allocate.
final class SpectrumAnalyzer {
    let size: Int
    let window: [Float]
    private let fft: FFT<Float>
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    /// Magnitudes of bins 0…size/2 after `analyse`.
    private(set) var magnitudes: [Float]

    init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two ≥ 4")
        self.size = size
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        fft = FFT(size: size)
        re = .allocate(capacity: size)
        im = .allocate(capacity: size)
        magnitudes = Array(repeating: 0, count: size / 2 + 1)
    }

    deinit {
        re.deallocate()
        im.deallocate()
    }

    /// Analyses `frame` (exactly `size` samples).
    func analyse(_ frame: UnsafeBufferPointer<Float>) {
        for i in 0..<size {
            re[i] = frame[i] * window[i]
            im[i] = 0
        }
        fft.forward(real: re, imaginary: im)
        for k in 0...(size / 2) { magnitudes[k] = (re[k] * re[k] + im[k] * im[k]).squareRoot() }
    }
}
