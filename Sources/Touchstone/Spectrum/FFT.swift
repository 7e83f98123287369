import Foundation

/// An in-place iterative radix-2 complex FFT (decimation in time) of a fixed power-of-two size, in
/// `Float` (the haptics' audio analysis) or `Double` (Oberon's meters and spectra): the package's one FFT.
///
/// Twiddle factors (computed in `Double`, then rounded once to `Scalar`) and the bit-reversal
/// permutation are made at `init`; `forward` never allocates. X[k] = Σ x[n]·e^(−2πi·kn/N), unscaled.
public final class FFT<Scalar: BinaryFloatingPoint> {
    /// Transform length (a power of two, 2…65 536).
    public let size: Int
    /// cos(2πk/N) for k in 0..<N/2.
    @usableFromInline let cosines: UnsafeMutablePointer<Scalar>
    /// −sin(2πk/N) for k in 0..<N/2 (the forward transform's sign).
    @usableFromInline let sines: UnsafeMutablePointer<Scalar>
    @usableFromInline let reversed: UnsafeMutablePointer<Int>

    /// - Parameter size: a power of two, 2…65 536 (a precondition).
    public init(size: Int) {
        precondition(size >= 2 && size <= 65_536 && size & (size - 1) == 0, "FFT size must be a power of two, 2…65536")
        self.size = size
        cosines = .allocate(capacity: size / 2)
        sines = .allocate(capacity: size / 2)
        for k in 0..<(size / 2) {
            let angle = 2 * Double.pi * Double(k) / Double(size)
            cosines[k] = Scalar(cos(angle))
            sines[k] = Scalar(-sin(angle))
        }
        reversed = .allocate(capacity: size)
        let bits = size.trailingZeroBitCount
        for i in 0..<size {
            var r = 0, v = i
            for _ in 0..<bits { r = (r << 1) | (v & 1); v >>= 1 }
            reversed[i] = r
        }
    }

    deinit {
        cosines.deallocate()
        sines.deallocate()
        reversed.deallocate()
    }

    /// Transforms `real` + i·`imaginary` (each `size` values) in place.
    @inlinable
    public func forward(real: UnsafeMutablePointer<Scalar>, imaginary: UnsafeMutablePointer<Scalar>) {
        for i in 0..<size {
            let j = reversed[i]
            if j > i {
                swap(&real[i], &real[j])
                swap(&imaginary[i], &imaginary[j])
            }
        }
        var half = 1
        while half < size {
            let stride = size / (2 * half)
            var start = 0
            while start < size {
                for k in 0..<half {
                    let wr = cosines[k * stride], wi = sines[k * stride]
                    let a = start + k, b = a + half
                    let tr = wr * real[b] - wi * imaginary[b]
                    let ti = wr * imaginary[b] + wi * real[b]
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
                start += 2 * half
            }
            half *= 2
        }
    }
}
