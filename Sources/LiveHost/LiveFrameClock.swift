/// The audio side's frame clock as the live host sees it: where an input event is due.
///
/// The UDP edge stamps every datagram on arrival (``Datagram/arrival``, seconds on `MonotonicClock`);
/// an instrument asks this clock for the audio frame time at which the event is due, its arrival's
/// frame time plus a fixed input delay, and sends its commands or MIDI with that frame, so the audio
/// thread applies them at that sample of the period that contains it. The JACK edge implements it
/// (`JACKInputClock`); the arithmetic is ``InputTiming``.
public protocol LiveFrameClock: AnyObject, Sendable {
    /// The frame time (the audio server's 32-bit frame counter) at which an event that arrived at
    /// `arrival` (seconds, `MonotonicClock`) is due; nil while no audio runs (then the event is applied
    /// at the start of the next period).
    func dueFrame(forArrival arrival: Double) -> UInt32?
}
