import Enobarbus
import NIOCore
import NIOPosix
import Synchronization

/// One decoded datagram with its receive time and sender.
public struct ReceivedOSCPacket: Sendable {
    public var packet: OSCPacket
    /// `MonotonicClock.now()` when the datagram was read.
    public var time: Double
    /// "ip:port" of the sender.
    public var sender: String
}

/// Counters of an `OSCUDPReceiver`.
public struct OSCReceiverStatistics: Sendable, Equatable {
    /// Datagrams that decoded as OSC.
    public var packets = 0
    /// Datagrams that did not; the receiver keeps running.
    public var malformed = 0
    /// Packets the consumer's stream buffer had no room for (oldest are kept).
    public var dropped = 0
    /// The last decoding error and who sent it.
    public var lastError: OSCDecodingError?
    public var lastErrorSender: String?
}

/// Receives OSC over UDP with SwiftNIO: one packet per datagram, decoded strictly.
///
/// Bound to 127.0.0.1 by default; pass another host (e.g. "0.0.0.0") only when input must
/// come from other machines. Malformed datagrams are counted (with the last error) and
/// dropped; they never stop the receiver.
///
///     let receiver = try await OSCUDPReceiver.bind(port: 9000).get()
///     for await received in receiver.packets { … }
///     try await receiver.close()
public final class OSCUDPReceiver: Sendable {
    /// Largest datagram read whole (the IPv4 UDP payload limit).
    public static let maximumDatagramSize = 65_507

    private let channel: any Channel
    private let state: ReceiverState
    /// Decoded packets in arrival order. Finishes when the receiver closes.
    public let packets: AsyncStream<ReceivedOSCPacket>

    /// The port actually bound (useful after binding port 0 for an ephemeral port).
    public var localPort: Int { channel.localAddress?.port ?? 0 }
    /// "ip:port" actually bound.
    public var localAddress: String { "\(channel.localAddress?.ipAddress ?? "?"):\(localPort)" }

    public var statistics: OSCReceiverStatistics { state.statistics.withLock { $0 } }

    private init(channel: any Channel, state: ReceiverState, packets: AsyncStream<ReceivedOSCPacket>) {
        self.channel = channel
        self.state = state
        self.packets = packets
    }

    /// Binds a UDP socket on `host`:`port` (0 = an ephemeral port).
    /// - Parameters:
    ///   - bufferLimit: packets the `packets` stream holds for a slow consumer before dropping (counted);
    ///     0 when only `onPacket` consumes (the stream then finishes at once and nothing counts as dropped).
    ///   - onPacket: also called for every decoded packet, on the event loop; keep it short.
    public static func bind(
        host: String = "127.0.0.1", port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        bufferLimit: Int = 4096, onPacket: (@Sendable (ReceivedOSCPacket) -> Void)? = nil
    ) -> EventLoopFuture<OSCUDPReceiver> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ReceivedOSCPacket.self, bufferingPolicy: .bufferingOldest(max(bufferLimit, 1)))
        if bufferLimit == 0 { continuation.finish() }
        let state = ReceiverState(continuation: bufferLimit == 0 ? nil : continuation, onPacket: onPacket)
        let bootstrap = DatagramBootstrap(group: group)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: maximumDatagramSize))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(OSCDatagramHandler(state: state))
                }
            }
        return bootstrap.bind(host: host, port: port).map { channel in
            channel.closeFuture.whenComplete { _ in continuation.finish() }
            return OSCUDPReceiver(channel: channel, state: state, packets: stream)
        }
    }

    /// Closes the socket; `packets` finishes.
    public func close() -> EventLoopFuture<Void> {
        channel.close().recover { _ in }
    }
}

final class ReceiverState: Sendable {
    let statistics = Mutex(OSCReceiverStatistics())
    let continuation: AsyncStream<ReceivedOSCPacket>.Continuation?
    let onPacket: (@Sendable (ReceivedOSCPacket) -> Void)?

    init(continuation: AsyncStream<ReceivedOSCPacket>.Continuation?, onPacket: (@Sendable (ReceivedOSCPacket) -> Void)?) {
        self.continuation = continuation
        self.onPacket = onPacket
    }
}

final class OSCDatagramHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let state: ReceiverState

    init(state: ReceiverState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let time = MonotonicClock.now()
        let result = envelope.data.withUnsafeReadableBytes { raw in
            Result { () throws(OSCDecodingError) -> OSCPacket in try OSCDecoder.decode(raw) }
        }
        let sender = "\(envelope.remoteAddress.ipAddress ?? "?"):\(envelope.remoteAddress.port ?? 0)"
        switch result {
        case .success(let packet):
            let received = ReceivedOSCPacket(packet: packet, time: time, sender: sender)
            // Counted before the packet is handed on: a reader that has it sees it counted.
            state.statistics.withLock { $0.packets += 1 }
            state.onPacket?(received)
            if case .dropped = state.continuation?.yield(received) {
                state.statistics.withLock { $0.dropped += 1 }
            }
        case .failure(let error):
            state.statistics.withLock {
                $0.malformed += 1
                $0.lastError = error
                $0.lastErrorSender = sender
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A UDP read error (e.g. ICMP port unreachable surfaced by the kernel) must not close the receiver.
    }
}
