import Enobarbus
import LiveHost

/// The studio's session as the ``LiveInstrument`` a ``LiveHost`` plays: one UDP input shared by every
/// instrument, its frames going to whichever is active.
public final class StudioLiveInstrument: LiveInstrument {
    public let session: StudioSession

    public init(session: StudioSession) { self.session = session }

    /// No page watches and none played lately: nothing is shown and no touch is held; or the active instrument
    /// has no time of its own (the test tone, HiSynth: its advance does nothing, so a page listening to it needs
    /// no 100 Hz tick). OSC input still wakes the host at once.
    public var canRest: Bool { session.isUnattended(at: MonotonicClock.now()) || !session.activeAdvancesWithTime }

    public func receive(_ frames: [TrackingFrame], at time: Double) {
        session.receive(frames, at: time)
        // A page camera's face is applied now: its latency ends here.
        session.camera?.applied(arrival: time, now: MonotonicClock.now())
    }
    public func receiveControls(_ outputs: [Float], at time: Double) { session.receiveControls(outputs, at: time) }
    public func advance(to time: Double) { session.advance(to: time) }
    public func finish(at time: Double) { session.finish(at: time) }
    public func statusLine(at time: Double) -> String? { session.activeID.map { "studio: \($0) active" } }
}
