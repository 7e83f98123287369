/// The arithmetic of input timing: from an arrival time on the host's clock to the audio frame at
/// which the event is due. Portable; the JACK edge feeds it JACK's frame clock.
///
/// The mapping reads both clocks at one instant ("now": seconds on the host's monotonic clock and the
/// audio frame clock's estimate of the current frame) and goes back by the event's age:
///
///     arrivalFrame = nowFrame − round((now − arrival) · sampleRate)
///     dueFrame     = arrivalFrame + delay
///
/// With a delay of at least one period, an event that arrived during the period that starts at frame
/// F, x frames in, is due at F + delay + x: every event reaches the output `delay` frames after its
/// arrival whatever the input thread's jitter, instead of at the start of the next period.
public enum InputTiming {
    /// Events older than this (seconds) are mapped as if this old: they are late anyway, and the
    /// bound keeps the frame arithmetic far from the 32-bit wrap.
    public static let maximumAge = 10.0

    /// The frame time of an arrival.
    /// - Parameters:
    ///   - arrival: when the event arrived (seconds, host clock).
    ///   - now: the host clock now (seconds), read together with `nowFrame`.
    ///   - nowFrame: the audio frame clock now (wrapping 32-bit frames).
    ///   - sampleRate: frames per second of the audio clock (> 0).
    /// An arrival stamped after `now` (the two reads raced) counts as now.
    public static func arrivalFrame(arrival: Double, now: Double, nowFrame: UInt32, sampleRate: Double) -> UInt32 {
        let age = min(max(now - arrival, 0), maximumAge)
        guard age.isFinite, sampleRate.isFinite, sampleRate > 0 else { return nowFrame }
        let frames = UInt32(clamping: Int((age * sampleRate).rounded()))
        return nowFrame &- frames
    }

    /// The frame time at which an event that arrived at `arrival` is due: its arrival frame plus
    /// `delay` frames (≥ 0).
    public static func dueFrame(arrival: Double, now: Double, nowFrame: UInt32, sampleRate: Double, delay: Int) -> UInt32 {
        arrivalFrame(arrival: arrival, now: now, nowFrame: nowFrame, sampleRate: sampleRate) &+ UInt32(clamping: max(delay, 0))
    }
}
