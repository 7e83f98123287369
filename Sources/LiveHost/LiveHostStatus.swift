/// A snapshot of a running ``LiveHost``: what came in, what was refused or lost, and the
/// instrument's own line. Cheap to copy; read from any thread.
public struct LiveHostStatus: Sendable, Hashable {
    /// Datagrams that decoded as OSC.
    public var packets = 0
    /// Datagrams that did not decode (the last error and its sender below).
    public var malformed = 0
    /// Datagrams from senders outside the allow-list, dropped unread.
    public var refused = 0
    /// Datagrams dropped because the input queue was full (the loop fell behind).
    public var dropped = 0
    /// Frames handed to the instrument.
    public var frames = 0
    public var acceptedMessages = 0
    public var rejectedMessages = 0
    public var ignoredMessages = 0
    public var lastMalformed: String?
    public var lastRefusedSender: String?
    public var lastRejection: String?
    /// The instrument's line (nil before the first).
    public var instrumentLine: String?
    /// Seconds since the host started.
    public var elapsed = 0.0

    public init() {}

    /// The counters as one line ("packets 120  malformed 0  refused 3 …").
    public var countersLine: String {
        "packets \(packets)  malformed \(malformed)  refused \(refused)  dropped \(dropped)  frames \(frames)"
            + "  accepted \(acceptedMessages)  rejected \(rejectedMessages)  ignored \(ignoredMessages)"
    }
}
