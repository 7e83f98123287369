import Enobarbus

/// A snapshot of a running ``LiveHost``: what came in, what was refused or lost, and the
/// instrument's own line. Cheap to copy; read from any thread.
public struct LiveHostStatus: Sendable, Hashable {
    /// Datagrams decoded (OSC, iFacialMocap text or Live Link Face binary).
    public var packets = 0
    /// Datagrams that did not decode, in no known format or malformed in theirs (the last error and
    /// its sender below).
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
    /// What each sender delivered: accepted OSC messages, or datagrams for iFacialMocap and Live Link Face.
    public var senders: [InputSender: Int] = [:]
    /// The latest Wekinator `/wek/outputs` vector (empty before one).
    public var wekinatorOutputs: [Float] = []
    /// Feature vectors sent to Wekinator's `/wek/inputs`, and handshakes sent to a phone app.
    public var wekinatorVectorsSent = 0
    public var handshakesSent = 0
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

    /// The senders heard so far with their counts ("Face Cap 5460, iFacialMocap 60"), nil before any.
    public var sendersLine: String? {
        guard !senders.isEmpty else { return nil }
        return senders.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
