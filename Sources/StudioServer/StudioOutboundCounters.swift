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

    public init() {}

    /// "sockets: 12 345 messages and 678 binary frames sent; 0 binary frames dropped, 0 pages cut off (not reading)".
    public var summary: String {
        "sockets: \(textSent.load(ordering: .relaxed)) messages and \(binarySent.load(ordering: .relaxed)) binary frames sent; "
            + "\(binaryDropped.load(ordering: .relaxed)) binary frames dropped (a page behind), "
            + "\(clientsCut.load(ordering: .relaxed)) pages cut off (not reading)"
    }
}
