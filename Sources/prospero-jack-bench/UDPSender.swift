import Glibc

/// The bench's sender: datagrams to a receiver on this machine (127.0.0.1), as a tracking app sends them.
final class UDPSender {
    private let descriptor: Int32

    init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("no UDP socket: errno \(errno)") }
    }

    deinit { close(descriptor) }

    /// Sends `bytes` as one datagram to 127.0.0.1:`port`; whether the kernel took it.
    @discardableResult
    func send(_ bytes: [UInt8], port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == bytes.count
    }

    /// A UDP port free on 127.0.0.1 now (bound and released), for a command's `--port`.
    static func freePort() throws -> Int {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard probe >= 0 else { throw BenchFailure("no UDP socket: errno \(errno)") }
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
        }
        guard bound else { throw BenchFailure("no free UDP port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
