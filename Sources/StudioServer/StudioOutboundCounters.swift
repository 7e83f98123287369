import Synchronization

/// What the server's sockets sent and what they could not: printed when `prospero studio` stops.
public final class StudioOutboundCounters: Sendable {
    public let textSent = Atomic<Int>(0)
    public let binarySent = Atomic<Int>(0)
    /// Binary frames (meters, scope, spectrum, PCM) dropped because their page was behind.
    public let binaryDropped = Atomic<Int>(0)
    /// Writes of binary frames to a socket: one per group of frames written together (``StudioBinaryWriter``).
    public let binaryWrites = Atomic<Int>(0)
    /// Write tasks handed to a socket's event loop from another thread for binary frames: each a wake-up of that
    /// loop when it slept (browser audio to a listener on the loop its doorbell rings costs none).
    public let binaryHops = Atomic<Int>(0)
    /// Sockets cut because their page stopped reading text (it reconnects to the whole state).
    public let clientsCut = Atomic<Int>(0)
    /// Text messages queued on all sockets and not yet written, and their UTF-8 bytes.
    public let textWaiting = Atomic<Int>(0)
    public let textWaitingBytes = Atomic<Int>(0)
    /// The most of each there ever was: what the queues' by-design buffering of pages that fall behind cost
    /// (at most ``StudioOutboundQueue/textByteLimit`` bytes a socket), told apart from a leak.
    public let textWaitingPeak = Atomic<Int>(0)
    public let textWaitingBytesPeak = Atomic<Int>(0)

    public init() {}

    /// A socket queued a text message of `bytes` UTF-8 bytes.
    func queuedText(bytes: Int) {
        textWaitingPeak.max(textWaiting.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
        textWaitingBytesPeak.max(textWaitingBytes.add(bytes, ordering: .relaxed).newValue, ordering: .relaxed)
    }

    /// Queued text left the queue: `messages` of them, `bytes` in all (written, or dropped with its socket).
    func unqueuedText(messages: Int, bytes: Int) {
        textWaiting.subtract(messages, ordering: .relaxed)
        textWaitingBytes.subtract(bytes, ordering: .relaxed)
    }

    /// "sockets: 12 345 messages and 678 binary frames sent; at most 90 messages (8 KB) of text waiting;
    /// 0 binary frames dropped (a page behind), 0 pages cut off (not reading)".
    public var summary: String {
        "sockets: \(textSent.load(ordering: .relaxed)) messages and \(binarySent.load(ordering: .relaxed)) binary frames sent; "
            + "at most \(textWaitingPeak.load(ordering: .relaxed)) messages (\((textWaitingBytesPeak.load(ordering: .relaxed) + 1023) / 1024) KB) of text waiting; "
            + "\(binaryDropped.load(ordering: .relaxed)) binary frames dropped (a page behind), "
            + "\(clientsCut.load(ordering: .relaxed)) pages cut off (not reading)"
    }
}
