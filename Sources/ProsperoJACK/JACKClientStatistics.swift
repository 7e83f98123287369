/// Counters of a running ``JACKClient``, readable from any thread while it runs.
public struct JACKClientStatistics: Sendable, Equatable {
    /// Xruns the server reported (its xrun callback), over all clients of the graph.
    public var xruns: Int
    /// Process callbacks run.
    public var periods: Int
    /// Frames rendered.
    public var frames: Int
    /// Longest process callback, in nanoseconds (handler plus MIDI and bookkeeping).
    public var longestCallbackNanoseconds: Int
    /// Mean process callback, in nanoseconds.
    public var averageCallbackNanoseconds: Int
    /// MIDI messages the handler sent that could not be delivered (full buffer, frame outside the period).
    public var midiOutputDropped: Int
    /// MIDI messages JACK lost before they reached the input port.
    public var midiInputLost: Int
    /// Periods whose output was not finite and was replaced by silence.
    public var silencedPeriods: Int
    /// Periods rendered as silence without calling the handler (re-preparing, or a period longer than prepared).
    public var skippedPeriods: Int
    /// Times the handler was prepared again after a sample-rate or buffer-size change.
    public var reprepareCount: Int

    public init(
        xruns: Int = 0, periods: Int = 0, frames: Int = 0, longestCallbackNanoseconds: Int = 0,
        averageCallbackNanoseconds: Int = 0, midiOutputDropped: Int = 0, midiInputLost: Int = 0,
        silencedPeriods: Int = 0, skippedPeriods: Int = 0, reprepareCount: Int = 0
    ) {
        self.xruns = xruns
        self.periods = periods
        self.frames = frames
        self.longestCallbackNanoseconds = longestCallbackNanoseconds
        self.averageCallbackNanoseconds = averageCallbackNanoseconds
        self.midiOutputDropped = midiOutputDropped
        self.midiInputLost = midiInputLost
        self.silencedPeriods = silencedPeriods
        self.skippedPeriods = skippedPeriods
        self.reprepareCount = reprepareCount
    }
}
