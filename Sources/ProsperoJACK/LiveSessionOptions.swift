/// How a ``LiveSession`` connects and how long it runs.
public struct LiveSessionOptions: Sendable, Hashable {
    /// Where the stereo output goes.
    public enum AudioConnection: Sendable, Hashable {
        /// To the first two hardware playback ports (system:playback_1/2) when they exist; otherwise unconnected.
        case automatic
        /// Left and right to these input ports (full names).
        case ports(left: String, right: String)
        /// Leave the outputs unconnected (connect them with a patchbay).
        case never
    }

    public var client: JACKClient.Configuration
    public var audioConnection: AudioConnection
    /// Output ports (full names) whose MIDI Prospero receives on its `midi_in`.
    public var midiInputSources: [String]
    /// Input ports (full names) that receive Prospero's `midi_out`.
    public var midiOutputDestinations: [String]
    /// Stop after this long; nil runs until a signal, ``LiveSession/requestStop()`` or server shutdown.
    public var duration: Duration?
    /// After the server shuts down, wait for it to come back and continue instead of ending.
    public var reconnect: Bool
    /// Pause between attempts to reach a server that went away.
    public var reconnectInterval: Duration
    /// End on SIGINT, SIGTERM and SIGHUP: ``LiveSession/run()`` installs ``SignalStop`` for its stop.
    /// Commands that share one stop among several parts install it themselves and pass false.
    public var handlesSignals: Bool
    /// When set, every process callback is timed into a ring of this many callbacks (the latest kept) and
    /// the distribution, with each xrun's cause, is logged when the session stops (``JACKCallbackTiming``;
    /// about a microsecond per callback). Nil: not timed.
    public var callbackTimingCapacity: Int?

    public init(
        client: JACKClient.Configuration = JACKClient.Configuration(),
        audioConnection: AudioConnection = .automatic,
        midiInputSources: [String] = [],
        midiOutputDestinations: [String] = [],
        duration: Duration? = nil,
        reconnect: Bool = false,
        reconnectInterval: Duration = .seconds(1),
        handlesSignals: Bool = true,
        callbackTimingCapacity: Int? = nil
    ) {
        self.client = client
        self.audioConnection = audioConnection
        self.midiInputSources = midiInputSources
        self.midiOutputDestinations = midiOutputDestinations
        self.duration = duration
        self.reconnect = reconnect
        self.reconnectInterval = reconnectInterval
        self.handlesSignals = handlesSignals
        self.callbackTimingCapacity = callbackTimingCapacity
    }
}
