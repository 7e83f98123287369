/// Two `DelayLine`s as one stereo kernel, sharing their settings, with an
/// optional offset of the right channel's delay time for width.
///
/// Each channel is an independent feedback loop (no cross-feed). Setting a
/// parameter here sets it on both lines; `rightTimeOffset` (seconds, −0.05…0.05)
/// is added to the right line's delay time. See `DelayLine` for units and ranges.
public final class StereoDelay: StereoProcessor {
    /// The left and right lines (configure them directly for anything asymmetric).
    public let left: DelayLine
    public let right: DelayLine

    /// Creates a stereo delay able to hold `maximumDelay` seconds per channel.
    public init(maximumDelay: Double = 2, delayTime: Float = 0.5, feedback: Float = 0.5, mix: Float = 0.5) {
        left = DelayLine(maximumDelay: maximumDelay, delayTime: delayTime, feedback: feedback, mix: mix)
        right = DelayLine(maximumDelay: maximumDelay, delayTime: delayTime, feedback: feedback, mix: mix)
    }

    /// Delay time in seconds (both channels; the right one plus `rightTimeOffset`).
    public var delayTime: Float {
        get { left.delayTime }
        set {
            left.delayTime = newValue
            right.delayTime = newValue + rightTimeOffset
        }
    }

    /// Extra delay of the right channel, in seconds (−0.05…0.05, clamped).
    public var rightTimeOffset: Float = 0 {
        didSet {
            rightTimeOffset = rightTimeOffset.clamped(to: -0.05...0.05, nonFinite: 0)
            right.delayTime = left.delayTime + rightTimeOffset
        }
    }

    /// Feedback gain, −0.99…0.99, both channels.
    public var feedback: Float {
        get { left.feedback }
        set { left.feedback = newValue; right.feedback = newValue }
    }

    /// Dry/wet 0…1, both channels.
    public var mix: Float {
        get { left.mix }
        set { left.mix = newValue; right.mix = newValue }
    }

    /// In-loop damping cutoff in Hz, both channels.
    public var dampingCutoff: Float {
        get { left.dampingCutoff }
        set { left.dampingCutoff = newValue; right.dampingCutoff = newValue }
    }

    public func prepare(_ spec: ProcessSpec) {
        left.prepare(spec)
        right.prepare(spec)
    }

    public func reset() {
        left.reset()
        right.reset()
    }

    /// Processes one stereo frame.
    @inlinable @inline(__always)
    public func processFrame(left inLeft: Float, right inRight: Float) -> (left: Float, right: Float) {
        (left.processSample(inLeft, modulation: 0), right.processSample(inRight, modulation: 0))
    }

    /// Processes two channel buffers in place (equal length, at most the prepared block size).
    /// Not annotated `@_noAllocation`: calling the child lines retains them (no
    /// allocation, which the allocation tests verify, but the checker counts ARC as locking).
    public func process(left leftBuffer: UnsafeMutableBufferPointer<Float>, right rightBuffer: UnsafeMutableBufferPointer<Float>) {
        precondition(leftBuffer.count == rightBuffer.count, "stereo buffers must have the same length")
        left.process(leftBuffer)
        right.process(rightBuffer)
    }
}
