/// The arithmetic of input timing: from an arrival time on the host's clock to the audio frame at
/// which the event is due. Portable; the JACK edge feeds it the start of the latest period.
///
/// The reference is a moment whose audio frame is known: the start of the period the audio thread
/// is rendering (its first frame's frame time, and when the audio thread started it). An event that
/// arrived `t` seconds after that start is at frame `reference + t · sampleRate`, and is due a fixed
/// delay later:
///
///     arrivalFrame = referenceFrame + round((arrival − referenceTime) · sampleRate)
///     dueFrame     = arrivalFrame + delay
///
/// With a delay of one period, an event that arrived x frames into the period that starts at frame F
/// is due at F + period + x, at offset x of the next period: every event reaches the output `delay`
/// frames after its arrival whatever the input thread's jitter, instead of at the next period's start.
/// Measuring from the period the audio thread actually runs (not from an extrapolated server clock)
/// keeps this true when the server's periods come late or in bursts.
public enum InputTiming {
    /// Arrivals further than this (seconds) from the reference are mapped as if this far: the
    /// bound keeps the frame arithmetic far from the 32-bit wrap (such an event is late anyway).
    public static let maximumDistance = 10.0

    /// The frame time of `arrival`.
    /// - Parameters:
    ///   - arrival: when the event arrived (seconds, the reference's clock).
    ///   - referenceTime: when the frame `referenceFrame` started (seconds, same clock).
    ///   - referenceFrame: the audio frame clock at `referenceTime` (wrapping 32-bit frames).
    ///   - sampleRate: frames per second of the audio clock (> 0).
    public static func arrivalFrame(arrival: Double, referenceTime: Double, referenceFrame: UInt32, sampleRate: Double) -> UInt32 {
        let distance = min(max(arrival - referenceTime, -maximumDistance), maximumDistance)
        guard distance.isFinite, sampleRate.isFinite, sampleRate > 0 else { return referenceFrame }
        let frames = Int((distance * sampleRate).rounded())
        return frames >= 0 ? referenceFrame &+ UInt32(frames) : referenceFrame &- UInt32(-frames)
    }

    /// The frame time at which an event that arrived at `arrival` is due: its arrival frame plus
    /// `delay` frames (≥ 0).
    public static func dueFrame(arrival: Double, referenceTime: Double, referenceFrame: UInt32, sampleRate: Double,
                                delay: Int) -> UInt32 {
        arrivalFrame(arrival: arrival, referenceTime: referenceTime, referenceFrame: referenceFrame, sampleRate: sampleRate)
            &+ UInt32(clamping: max(delay, 0))
    }
}
