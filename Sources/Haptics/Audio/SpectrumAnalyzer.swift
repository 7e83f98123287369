import Foundation

/// Magnitude spectrum of a Hann-windowed frame by an in-place radix-2 FFT; size a power of two.
/// Twiddles, window and work buffers are made once in `init`, so `analyse` does not allocate.
final class SpectrumAnalyzer {
    let size: Int
    let window: [Float]
    private var re: [Float]
    private var im: [Float]
    private let cosTable: [Float]
    private let sinTable: [Float]
    private let bitReversed: [Int]
    /// Magnitudes of bins 0…size/2 after `analyse`.
    private(set) var magnitudes: [Float]

    init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two ≥ 4")
        self.size = size
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        re = Array(repeating: 0, count: size)
        im = Array(repeating: 0, count: size)
        cosTable = (0..<size / 2).map { Float(cos(2 * Double.pi * Double($0) / Double(size))) }
        sinTable = (0..<size / 2).map { Float(-sin(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        bitReversed = (0..<size).map { i in
            var r = 0, x = i
            for _ in 0..<bits { r = r << 1 | (x & 1); x >>= 1 }
            return r
        }
        magnitudes = Array(repeating: 0, count: size / 2 + 1)
    }

    /// Analyses `frame` (exactly `size` samples).
    func analyse(_ frame: UnsafeBufferPointer<Float>) {
        for i in 0..<size {
            re[bitReversed[i]] = frame[i] * window[i]
            im[bitReversed[i]] = 0
        }
        var half = 1
        while half < size {
            let step = size / (2 * half)
            var start = 0
            while start < size {
                for k in 0..<half {
                    let c = cosTable[k * step], s = sinTable[k * step]
                    let a = start + k, b = a + half
                    let tr = re[b] * c - im[b] * s
                    let ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
                start += 2 * half
            }
            half *= 2
        }
        for k in 0...(size / 2) { magnitudes[k] = (re[k] * re[k] + im[k] * im[k]).squareRoot() }
    }
}
