import Foundation
import Touchstone

enum EffectsTestSignal {
    /// A sine of `frequency` Hz and `amplitude`, `count` samples at `sampleRate`.
    static func sine(frequency: Double, sampleRate: Double, count: Int, amplitude: Float = 1, phase: Double = 0) -> [Float] {
        (0..<count).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate + phase)) }
    }

    /// True for a finite, non-denormal value (zero counts as normal).
    static func isClean(_ x: Float) -> Bool {
        x.isFinite && (x == 0 || x.isNormal)
    }

    /// Largest |x[n] − x[n−1]|.
    static func largestStep(_ samples: ArraySlice<Float>) -> Float {
        var largest: Float = 0
        var previous = samples.first ?? 0
        for x in samples {
            largest = max(largest, abs(x - previous))
            previous = x
        }
        return largest
    }

    /// RMS of a slice.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Runs a mono kernel over `input` in blocks of `blockSize`.
    static func render<K: MonoProcessor>(_ kernel: inout K, _ input: [Float], blockSize: Int = 256) -> [Float] {
        var output = input
        output.withUnsafeMutableBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(start + blockSize, all.count)
                kernel.process(UnsafeMutableBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return output
    }

    /// Runs a stereo kernel over `left`/`right` in blocks of `blockSize`.
    static func render<K: StereoProcessor>(_ kernel: inout K, left: [Float], right: [Float], blockSize: Int = 256) -> (left: [Float], right: [Float]) {
        var outLeft = left
        var outRight = right
        outLeft.withUnsafeMutableBufferPointer { l in
            outRight.withUnsafeMutableBufferPointer { r in
                var start = 0
                while start < l.count {
                    let end = min(start + blockSize, l.count)
                    kernel.process(
                        left: UnsafeMutableBufferPointer(rebasing: l[start..<end]),
                        right: UnsafeMutableBufferPointer(rebasing: r[start..<end])
                    )
                    start = end
                }
            }
        }
        return (outLeft, outRight)
    }
}
