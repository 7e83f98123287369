import Foundation

/// A root-mean-square meter over a sliding rectangular window (300 ms by default).
///
/// The reading is the plain RMS in dBFS: a full-scale sine reads −3.01 dB. There is no AES17 +3 dB
/// offset (which would make a sine read its peak level); displays say so.
///
/// The window's squares live in a ring allocated at `init`; `process` never allocates. The running
/// sum is recomputed once per ring cycle so rounding never drifts.
public final class RMSMeter {
    /// Window length in seconds.
    public let window: Double
    /// Samples in the window.
    public let windowSamples: Int
    private let squares: UnsafeMutablePointer<Double>
    private var index = 0
    private var filled = 0
    private var sum = 0.0

    /// - Parameters: `sampleRate` in Hz (> 0); `window` in seconds (0.001…10, default 0.3).
    public init(sampleRate: Double, window: Double = 0.3) {
        self.window = min(max(window.isFinite ? window : 0.3, 0.001), 10)
        windowSamples = max(1, Int((self.window * sampleRate).rounded()))
        squares = .allocate(capacity: windowSamples)
        squares.initialize(repeating: 0, count: windowSamples)
    }

    deinit { squares.deallocate() }

    /// Mean square over the last `windowSamples` samples (fewer at the start), linear.
    public var meanSquare: Double { filled == 0 ? 0 : max(0, sum) / Double(filled) }

    /// RMS level in dBFS (no +3 dB offset); −∞ for silence.
    public var levelDecibels: Double { 10 * log10(meanSquare) }

    /// Feeds samples (non-finite samples count as silence).
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        for x in samples {
            let value = x.isFinite ? Double(x) * Double(x) : 0
            sum += value - squares[index]
            squares[index] = value
            index += 1
            if filled < windowSamples { filled += 1 }
            if index == windowSamples {
                index = 0
                var exact = 0.0
                for k in 0..<windowSamples { exact += squares[k] }
                sum = exact
            }
        }
    }

    /// Clears the window.
    public func reset() {
        squares.update(repeating: 0, count: windowSamples)
        index = 0
        filled = 0
        sum = 0
    }
}
