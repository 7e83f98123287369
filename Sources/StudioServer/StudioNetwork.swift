import Glibc

/// This machine's addresses, for the URL a phone opens and the Host allow-list when bound to 0.0.0.0.
public enum StudioNetwork {
    /// IPv4 addresses of the interfaces that are up, loopback excluded, in interface order.
    public static func localAddresses() -> [String] {
        var interfaces: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&interfaces) == 0 else { return [] }
        defer { freeifaddrs(interfaces) }
        var out: [String] = []
        var cursor = interfaces
        while let entry = cursor?.pointee {
            cursor = entry.ifa_next
            guard let address = entry.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.ifa_flags & UInt32(IFF_UP) != 0, entry.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                var a = sin.pointee.sin_addr
                _ = inet_ntop(AF_INET, &a, &text, socklen_t(INET_ADDRSTRLEN))
            }
            let s = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !out.contains(s) { out.append(s) }
        }
        return out
    }
}
