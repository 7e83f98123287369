import LiveHost
import NIOCore
import NIOPosix
import Synchronization

/// A ``DatagramSink`` on a UDP socket of its own (SwiftNIO), bound to an ephemeral port: the host's
/// Wekinator feature vectors and phone handshakes. Destinations are IP addresses or host names
/// (resolved once, then cached); a failed send is counted, never thrown.
public final class UDPDatagramSink: DatagramSink, @unchecked Sendable {
    private let channel: any Channel
    private let resolved = Mutex<[DatagramSender: SocketAddress]>([:])
    private let failed = Atomic<Int>(0)

    /// Binds the sending socket. Throws when no socket can be opened.
    public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        channel = try DatagramBootstrap(group: group).bind(host: "0.0.0.0", port: 0).wait()
    }

    /// The address of `destination`, resolving a host name once. Throws when it does not resolve.
    public func address(of destination: DatagramSender) throws -> SocketAddress {
        if let known = resolved.withLock({ $0[destination] }) { return known }
        let address = try SocketAddress.makeAddressResolvingHost(destination.address, port: destination.port)
        resolved.withLock { $0[destination] = address }
        return address
    }

    /// Datagrams that could not be sent (unresolvable destination, socket error).
    public var failedCount: Int { failed.load(ordering: .relaxed) }

    @discardableResult
    public func send(_ bytes: [UInt8], to destination: DatagramSender) -> Bool {
        guard let address = try? address(of: destination) else {
            failed.add(1, ordering: .relaxed)
            return false
        }
        let envelope = AddressedEnvelope(remoteAddress: address, data: channel.allocator.buffer(bytes: bytes))
        channel.writeAndFlush(envelope).whenFailure { [self] _ in failed.add(1, ordering: .relaxed) }
        return true
    }

    public func close() { try? channel.close().wait() }

    deinit { channel.close(promise: nil) }
}
