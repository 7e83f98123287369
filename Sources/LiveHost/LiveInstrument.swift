import Enobarbus

/// What a ``LiveHost`` plays: it receives every assembled frame with its arrival time, is advanced
/// on the host's clock (lifecycle timeouts, chord sequences, clock following) and finished once
/// when the session stops (note-offs, final commands). Called from the host's input loop only.
public protocol LiveInstrument: AnyObject {
    /// Frames assembled from datagrams that arrived at `time` (seconds, the source's clock).
    func receive(_ frames: [TrackingFrame], at time: Double)
    /// The same frames with the sender that made them (nil when the host cannot tell, e.g. several
    /// OSC senders' frames closed at once). The host calls this one; the default forwards to
    /// ``receive(_:at:)``, so only instruments that show senders (the monitor) implement it.
    func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double)
    /// A new Wekinator `/wek/outputs` vector arrived at `time` (see `WekinatorControlMapping` for how
    /// Prospero's instruments use it). The default ignores it.
    func receiveControls(_ outputs: [Float], at time: Double)
    /// Time passes without input: sources time out, chords change.
    func advance(to time: Double)
    /// The session stops: end every note, send the final commands.
    func finish(at time: Double)
    /// One line for the status display (the instrument's part of the snapshot), nil for none.
    func statusLine(at time: Double) -> String?
    /// True when nothing about this instrument changes with time alone while no input comes (nobody
    /// watches it): the host then advances it at ``LiveHostOptions/restingTick`` instead of every tick.
    /// Asked on the input loop. Default false (a live command's clock, fade and lifecycle need every tick).
    var canRest: Bool { get }
}

extension LiveInstrument {
    public func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double) { receive(frames, at: time) }
    public func receiveControls(_ outputs: [Float], at time: Double) {}
    public var canRest: Bool { false }
}
