import Glibc

/// A UDP socket for tests that send datagrams to a receiver on this machine, optionally from a
/// chosen local address (127.0.0.2 plays a sender outside an allow-list of 127.0.0.1/32).
public final class UDPTestSender {
    private let descriptor: Int32

    /// - Parameter from: local IPv4 address to send from (nil: the kernel picks one).
    public init(from: String? = nil) throws(UDPTestSenderError) {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(errno) }
        if let from {
            var address = Self.address(from, port: 0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(descriptor); throw .bind(from, errno) }
        }
    }

    static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Sends `bytes` as one datagram to `host`:`port`; returns whether the kernel took it.
    @discardableResult
    public func send(_ bytes: [UInt8], to host: String = "127.0.0.1", port: Int) -> Bool {
        var address = Self.address(host, port: port)
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == bytes.count
    }

    deinit { close(descriptor) }
}

public enum UDPTestSenderError: Error {
    case socket(Int32)
    case bind(String, Int32)
}
