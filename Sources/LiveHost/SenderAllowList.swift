/// Which senders a live input accepts: IPv4 networks in CIDR form ("192.168.1.0/24",
/// "10.0.0.7"), IPv6 loopback ("::1"), or everyone ("any").
///
/// Loopback is the default of every receiver; binding anything else accepts only this list, and
/// the host counts and reports what it refuses.
public struct SenderAllowList: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 network: address and prefix length 0…32.
    public struct Network: Sendable, Hashable, CustomStringConvertible {
        public var address: UInt32
        public var prefixLength: Int

        public init(address: UInt32, prefixLength: Int) {
            let length = min(max(prefixLength, 0), 32)
            self.prefixLength = length
            self.address = address & Self.mask(length)
        }

        static func mask(_ length: Int) -> UInt32 { length == 0 ? 0 : UInt32.max << UInt32(32 - length) }

        public func contains(_ ip: UInt32) -> Bool { ip & Self.mask(prefixLength) == address }

        public var description: String { "\(SenderAllowList.dotted(address))/\(prefixLength)" }
    }

    /// Accepts every sender.
    public var acceptsAny: Bool
    public var networks: [Network]
    /// Accepts "::1" (IPv6 loopback).
    public var acceptsIPv6Loopback: Bool

    public init(networks: [Network], acceptsIPv6Loopback: Bool = false, acceptsAny: Bool = false) {
        self.networks = networks
        self.acceptsIPv6Loopback = acceptsIPv6Loopback
        self.acceptsAny = acceptsAny
    }

    /// 127.0.0.0/8 and ::1.
    public static let loopback = SenderAllowList(networks: [Network(address: 0x7F00_0000, prefixLength: 8)], acceptsIPv6Loopback: true)
    public static let any = SenderAllowList(networks: [], acceptsAny: true)

    /// Parses `--allow` values: each "any", "a.b.c.d" or "a.b.c.d/n" (n 0…32), or "::1".
    public init(parsing entries: [String]) throws(SenderAllowListError) {
        self.init(networks: [])
        for entry in entries {
            let text = entry.trimmingWhitespace
            if text.lowercased() == "any" {
                acceptsAny = true
            } else if text == "::1" {
                acceptsIPv6Loopback = true
            } else {
                networks.append(try Self.network(text))
            }
        }
        if networks.isEmpty && !acceptsAny && !acceptsIPv6Loopback { throw .empty }
    }

    static func network(_ text: String) throws(SenderAllowListError) -> Network {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = parseIPv4(parts[0]) else { throw .notAnAddress(text) }
        var length = 32
        if parts.count == 2 {
            guard parts[1].count <= 2, let n = Int(parts[1]), (0...32).contains(n) else { throw .badPrefixLength(text) }
            length = n
        }
        return Network(address: address, prefixLength: length)
    }

    /// "a.b.c.d" (each 0…255, decimal, no leading sign) as a 32-bit number; nil for anything else.
    public static func parseIPv4(_ text: Substring) -> UInt32? {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var value: UInt32 = 0
        for octet in octets {
            guard (1...3).contains(octet.count), octet.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt32(octet), n <= 255 else {
                return nil
            }
            value = value << 8 | n
        }
        return value
    }

    static func dotted(_ v: UInt32) -> String { "\(v >> 24).\(v >> 16 & 255).\(v >> 8 & 255).\(v & 255)" }

    /// Whether a sender's address is accepted (IPv4-mapped IPv6 addresses count as IPv4).
    public func accepts(_ address: String) -> Bool {
        if acceptsAny { return true }
        var text = Substring(address)
        if text.hasPrefix("::ffff:") { text = text.dropFirst(7) }
        if let ip = Self.parseIPv4(text) { return networks.contains { $0.contains(ip) } }
        return acceptsIPv6Loopback && text == "::1"
    }

    /// Adds networks not yet covered.
    public mutating func formUnion(_ other: SenderAllowList) {
        acceptsAny = acceptsAny || other.acceptsAny
        acceptsIPv6Loopback = acceptsIPv6Loopback || other.acceptsIPv6Loopback
        for n in other.networks where !networks.contains(n) { networks.append(n) }
    }

    public var description: String {
        if acceptsAny { return "any sender" }
        return (networks.map(\.description) + (acceptsIPv6Loopback ? ["::1"] : [])).joined(separator: ", ")
    }
}

/// Why an `--allow` value was refused.
public enum SenderAllowListError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAnAddress(String)
    case badPrefixLength(String)
    case empty

    public var description: String {
        switch self {
        case .notAnAddress(let t): return "'\(t)' is not an IPv4 address or network (e.g. 192.168.1.0/24), ::1 or any"
        case .badPrefixLength(let t): return "'\(t)': the prefix length after / must be 0…32"
        case .empty: return "the allow-list is empty (give networks such as 192.168.1.0/24, or any)"
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
