import Glibc
import NIOCore

/// The unit the studio counts a peer by, for the connection cap, the client cap and token guessing: one IPv4
/// address, the whole of 127.0.0.0/8 (this machine; any of its 16 million addresses is the same user), or one IPv6
/// /64 (what one host can use freely: a LAN hands out /64s, and privacy addresses change inside one). An
/// IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) counts as its IPv4 address, and `::1` as loopback.
public struct StudioAddressBlock: Hashable, Sendable, CustomStringConvertible {
    /// `127.0.0.0/8`, `192.168.1.7`, `2001:db8:1:2::/64`.
    public let description: String

    public init(_ description: String) { self.description = description }

    public static let loopback = StudioAddressBlock("127.0.0.0/8")

    /// The block of a peer's socket address; nil for a Unix socket (no address to count).
    public init?(_ address: SocketAddress) {
        switch address {
        case .v4(let v4):
            self.init(ipv4: UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case .v6(let v6):
            var a = v6.address.sin6_addr
            let bytes = withUnsafeBytes(of: &a) { Array($0) }
            self.init(ipv6: bytes)
        case .unixDomainSocket:
            return nil
        }
    }

    /// An IPv4 address in host order.
    init(ipv4 address: UInt32) {
        if address >> 24 == 127 {
            self = .loopback
        } else {
            self.init("\(address >> 24).\((address >> 16) & 0xff).\((address >> 8) & 0xff).\(address & 0xff)")
        }
    }

    /// An IPv6 address's 16 bytes.
    init(ipv6 bytes: [UInt8]) {
        precondition(bytes.count == 16)
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            self.init(ipv4: bytes[12...].reduce(0) { $0 << 8 | UInt32($1) })
        } else if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 {
            self = .loopback
        } else {
            let groups = (0..<4).map { String(UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]), radix: 16) }
            self.init(groups.joined(separator: ":") + "::/64")
        }
    }

    public var isLoopback: Bool { self == .loopback }
}
