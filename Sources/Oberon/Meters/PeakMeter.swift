import Foundation

/// A peak programme meter: instant attack, a hold, then a fall of 20 dB in 1.7 s (the return time of
/// IEC 60268-10 / -18 digital peak meters), linear in decibels.
///
/// Per sample: if |x| ≥ the level, the level jumps to |x| and the hold restarts; otherwise, once the
/// hold has run out, the level falls by 20/1.7 dB per second. Allocation-free after `init`.
public struct PeakMeter: Sendable {
    /// Fall rate in dB per second (20 dB in 1.7 s).
    public static let fallDecibelsPerSecond = 20.0 / 1.7
    /// Levels below this many dBFS read as silence.
    public static let floorDecibels = -120.0

    /// Sample rate in Hz.
    public let sampleRate: Double
    /// Hold time in seconds (0…10) before the level starts to fall.
    public let holdTime: Double
    /// Current level, linear (0…, 1 = 0 dBFS).
    public var level: Float { Float(state) }
    /// The level in Double: a fall of 100 000 float multiplications would drift by hundredths of a dB.
    @usableFromInline var state = 0.0
    /// Highest sample magnitude since the last reset, linear.
    public private(set) var maximum: Float = 0

    @usableFromInline var holdRemaining = 0
    @usableFromInline let holdSamples: Int
    @usableFromInline let fallPerSample: Double
    @usableFromInline let floor: Double

    /// - Parameters: `sampleRate` in Hz (> 0); `holdTime` in seconds (0…10, clamped).
    public init(sampleRate: Double, holdTime: Double = 0.5) {
        self.sampleRate = sampleRate
        self.holdTime = min(max(holdTime.isFinite ? holdTime : 0.5, 0), 10)
        holdSamples = Int((self.holdTime * sampleRate).rounded())
        fallPerSample = pow(10, -Self.fallDecibelsPerSecond / (20 * sampleRate))
        floor = pow(10, Self.floorDecibels / 20)
    }

    /// Current level in dBFS (`floorDecibels` for silence).
    public var levelDecibels: Double { state > floor ? 20 * log10(state) : Self.floorDecibels }

    /// Feeds samples (non-finite samples count as silence).
    public mutating func process(_ samples: UnsafeBufferPointer<Float>) {
        var level = state, hold = holdRemaining, maximum = self.maximum
        for x in samples {
            let magnitude = x.isFinite ? abs(x) : 0
            if Double(magnitude) >= level {
                level = Double(magnitude)
                hold = holdSamples
                if magnitude > maximum { maximum = magnitude }
            } else if hold > 0 {
                hold -= 1
            } else {
                level = level * fallPerSample
                if level < floor { level = 0 }
            }
        }
        state = level
        holdRemaining = hold
        self.maximum = maximum
    }

    /// Feeds one block known only by its largest magnitude `peak` (linear) and its length, as a live tap
    /// measures it on the audio thread (`LiveMeterTap`). The peak is taken to fall on the block's last
    /// sample: the level first holds and falls over the block, then jumps to `peak` if that is higher.
    /// So the reading matches the per-sample meter's to within one block of hold and fall, never lower
    /// at a block's end. A non-finite peak counts as silence.
    public mutating func process(blockPeak peak: Float, frameCount: Int) {
        guard frameCount > 0 else { return }
        var level = state, hold = holdRemaining
        let heldFrames = min(hold, frameCount)
        hold -= heldFrames
        let falling = frameCount - heldFrames
        if falling > 0 && level > 0 {
            level *= pow(fallPerSample, Double(falling))
            if level < floor { level = 0 }
        }
        let magnitude = peak.isFinite ? abs(peak) : 0
        if Double(magnitude) >= level && magnitude > 0 {
            level = Double(magnitude)
            hold = holdSamples
            if magnitude > maximum { maximum = magnitude }
        }
        state = level
        holdRemaining = hold
    }

    /// Returns to silence and clears the maximum.
    public mutating func reset() {
        state = 0
        maximum = 0
        holdRemaining = 0
    }
}
