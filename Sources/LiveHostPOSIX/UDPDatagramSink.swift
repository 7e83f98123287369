import LiveHost
import Synchronization

// Linux's socket API (this edge names Glibc's functions and constants as Linux declares them).
import Glibc

/// A ``DatagramSink`` on a UDP socket of its own, bound to an ephemeral IPv4 port: the host's Wekinator
/// feature vectors and phone handshakes. Destinations are IP addresses or host names (resolved once,
/// then cached); a failed send is counted, never thrown.
public final class UDPDatagramSink: DatagramSink, @unchecked Sendable {
    private let socket: Int32
    private let resolved = Mutex<[DatagramSender: UDPSocketAddress]>([:])
    private let failed = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens the sending socket. Throws when no socket can be opened.
    public init() throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
    }

    /// The address of `destination`, resolving a host name once. Throws when it does not resolve.
    func address(of destination: DatagramSender) throws -> UDPSocketAddress {
        if let known = resolved.withLock({ $0[destination] }) { return known }
        let address = try UDPSocketAddress(host: destination.address, port: destination.port, family: AF_INET)
        resolved.withLock { $0[destination] = address }
        return address
    }

    /// Datagrams that could not be sent (unresolvable destination, socket error).
    public var failedCount: Int { failed.load(ordering: .relaxed) }

    @discardableResult
    public func send(_ bytes: [UInt8], to destination: DatagramSender) -> Bool {
        guard !closed.load(ordering: .relaxed), var address = try? address(of: destination) else {
            failed.add(1, ordering: .relaxed)
            return false
        }
        let sent = bytes.withUnsafeBytes { payload in
            withUnsafePointer(to: &address.storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socket, payload.baseAddress, payload.count, 0, $0, address.length)
                }
            }
        }
        guard sent == bytes.count else {
            failed.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    public func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        Glibc.close(socket)
    }

    deinit { close() }
}
