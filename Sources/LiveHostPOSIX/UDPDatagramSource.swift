import Enobarbus
import LiveHost
import NIOCore
import NIOPosix

/// A ``DatagramSource`` on a UDP socket (SwiftNIO): every datagram is delivered raw, with its
/// sender and `MonotonicClock.now()` taken as it is read, from NIO's event loop.
///
/// Bound to 127.0.0.1 by default; any other address should come with an allow-list on the host.
public final class UDPDatagramSource: DatagramSource, @unchecked Sendable {
    /// Largest datagram read whole (the IPv4 UDP payload limit).
    public static let maximumDatagramSize = 65_507

    public let host: String
    public let port: Int
    private let group: any EventLoopGroup
    private var channel: (any Channel)?

    public init(host: String = "127.0.0.1", port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.host = host
        self.port = port
        self.group = group
    }

    /// The port actually bound (after binding port 0), 0 before ``start(deliver:)``.
    public var boundPort: Int { channel?.localAddress?.port ?? 0 }

    public var localAddress: String {
        guard let address = channel?.localAddress else { return "\(host):\(port)" }
        return "\(address.ipAddress ?? host):\(address.port ?? port)"
    }

    public func start(deliver: @escaping @Sendable (Datagram) -> Void) throws {
        let bootstrap = DatagramBootstrap(group: group)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: Self.maximumDatagramSize))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DatagramForwarder(deliver: deliver))
                }
            }
        channel = try bootstrap.bind(host: host, port: port).wait()
    }

    public func close() {
        guard let channel else { return }
        try? channel.close().wait()
    }
}

final class DatagramForwarder: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let deliver: @Sendable (Datagram) -> Void

    init(deliver: @escaping @Sendable (Datagram) -> Void) { self.deliver = deliver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let arrival = MonotonicClock.now()
        let envelope = unwrapInboundIn(data)
        let sender = DatagramSender(address: envelope.remoteAddress.ipAddress ?? "?", port: envelope.remoteAddress.port ?? 0)
        deliver(Datagram(bytes: Array(envelope.data.readableBytesView), sender: sender, arrival: arrival))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A UDP read error (ICMP port unreachable surfaced by the kernel) must not close the source.
    }
}
