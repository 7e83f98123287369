import Enobarbus

/// How a ``LiveHost`` treats its input.
public struct LiveHostOptions: Sendable {
    /// Senders whose datagrams are read; the rest are counted as refused.
    public var allow: SenderAllowList
    /// Datagrams queued at most before the oldest are dropped (counted).
    public var inboxCapacity: Int
    /// Longest wait without input before the instrument is advanced (seconds): the resolution of
    /// timeouts and chord changes. Input itself is handled as it arrives.
    public var tick: Double
    /// Seconds between status snapshots handed to `onStatus`.
    public var statusInterval: Double
    /// Seconds without a datagram after which an instrument that ``LiveInstrument/canRest`` is advanced
    /// at ``restingTick`` only (far beyond the 0.25 s source timeout: every source has been lost by then).
    public var restAfter: Double = 2
    /// The resting loop's wait (s). A datagram still wakes it at once: input is never later for it.
    public var restingTick: Double = 0.25
    /// The assembler (its enabled formats); the host owns its state once running.
    public var assembler: OSCFrameAssembler
    /// The decoder of the other senders sharing the port (iFacialMocap, Live Link Face, FaceOSC,
    /// mpmocap, Visage, Wekinator); the host owns its state once running.
    public var senders: SenderDatagramDecoder
    /// Feature vectors to Wekinator through the host's sink (nil: none).
    public var wekinator: WekinatorFeed?
    /// A phone app's handshake through the host's sink (nil: none).
    public var handshake: PhoneHandshake?

    public init(allow: SenderAllowList = .loopback, inboxCapacity: Int = 4096, tick: Double = 0.01,
                statusInterval: Double = 1, assembler: OSCFrameAssembler = OSCFrameAssembler(),
                senders: SenderDatagramDecoder = SenderDatagramDecoder(), wekinator: WekinatorFeed? = nil,
                handshake: PhoneHandshake? = nil) {
        self.allow = allow
        self.inboxCapacity = inboxCapacity
        self.tick = tick
        self.statusInterval = statusInterval
        self.assembler = assembler
        self.senders = senders
        self.wekinator = wekinator
        self.handshake = handshake
    }
}
