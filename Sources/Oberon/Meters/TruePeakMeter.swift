import Foundation
import Touchstone

/// True-peak level per ITU-R BS.1770-4 Annex 2: the largest magnitude of the signal oversampled 4×
/// (`TruePeakInterpolator`), over all channels, in dBTP.
///
/// Each channel keeps the last 16 samples in a ring written twice, so the 12 that an interpolation
/// needs are contiguous; `process` never allocates. The interval between samples m and m+1 is
/// evaluated when sample m+6 arrives; `finish()` evaluates the last intervals as if silence followed.
public final class TruePeakMeter {
    /// Channels measured (1…8).
    public let channelCount: Int
    /// Highest true peak since the last reset, linear.
    public private(set) var maximum: Float = 0
    private let taps: UnsafeMutablePointer<Float>
    private let history: UnsafeMutablePointer<Float>
    private var counts: [Int]

    /// - Parameter channelCount: 1…8.
    public init(channelCount: Int) {
        self.channelCount = min(max(channelCount, 1), 8)
        let coefficients = TruePeakInterpolator().coefficients
        taps = .allocate(capacity: coefficients.count)
        taps.initialize(from: coefficients, count: coefficients.count)
        history = .allocate(capacity: 32 * self.channelCount)
        history.initialize(repeating: 0, count: 32 * self.channelCount)
        counts = [Int](repeating: 0, count: self.channelCount)
    }

    deinit {
        taps.deallocate()
        history.deallocate()
    }

    /// The maximum in dBTP (−∞ for silence).
    public var maximumDecibels: Double { 20 * log10(Double(maximum)) }

    /// Feeds one channel's samples (non-finite samples count as silence).
    public func process(channel: Int, _ samples: UnsafeBufferPointer<Float>) {
        precondition(channel >= 0 && channel < channelCount, "channel out of range")
        let ring = history + 32 * channel
        var n = counts[channel]
        var peak = maximum
        for x in samples {
            let value = x.isFinite ? x : 0
            let write = n & 15
            ring[write] = value
            ring[write + 16] = value
            peak = max(peak, abs(value))
            if n >= 5 {  // from the interval between the silence before and the first sample
                peak = max(peak, TruePeakInterpolator.intervalPeak(taps, ring + ((n &- 11) & 15)))
            }
            n &+= 1
        }
        counts[channel] = n
        maximum = peak
    }

    /// Evaluates the intervals still waiting for newer samples, as if silence followed; call once at
    /// the end of a file (it feeds 6 zeros per channel).
    public func finish() {
        let zeros: [Float] = [0, 0, 0, 0, 0, 0]
        zeros.withUnsafeBufferPointer { silence in
            for channel in 0..<channelCount { process(channel: channel, silence) }
        }
    }

    /// Clears the history and the maximum.
    public func reset() {
        history.update(repeating: 0, count: 32 * channelCount)
        for k in counts.indices { counts[k] = 0 }
        maximum = 0
    }
}
