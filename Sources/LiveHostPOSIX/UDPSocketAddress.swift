// Linux's socket API (this edge names Glibc's functions and constants as Linux declares them).
import Glibc

/// An IPv4 or IPv6 socket address as the kernel takes it, made from a host (a numeric address or a name,
/// resolved once) and read back as numeric text.
struct UDPSocketAddress: @unchecked Sendable {
    var storage = sockaddr_storage()
    var length: socklen_t = 0

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() {}

    /// `host`:`port` for a datagram socket (`passive`: an address to bind, where an empty host is any).
    /// Throws when it does not resolve.
    init(host: String, port: Int, family: Int32 = AF_UNSPEC, passive: Bool = false) throws {
        var hints = addrinfo()
        hints.ai_family = family
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(description: "cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        length = first.pointee.ai_addrlen
    }

    var family: Int32 { Int32(storage.ss_family) }

    /// The numeric host ("127.0.0.1", "::1", "::ffff:10.0.0.7") and the port.
    var numeric: (host: String, port: Int) {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var address = v4.pointee.sin_addr
                    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                    return (String(cString: text), Int(UInt16(bigEndian: v4.pointee.sin_port)))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return (String(cString: text), Int(UInt16(bigEndian: v6.pointee.sin6_port)))
                }
            default:
                return ("?", 0)
            }
        }
    }

    /// The address `socket` is bound to.
    static func bound(to socket: Int32) -> UDPSocketAddress? {
        var address = UDPSocketAddress()
        address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &address.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &address.length) }
        }
        return status == 0 ? address : nil
    }
}
