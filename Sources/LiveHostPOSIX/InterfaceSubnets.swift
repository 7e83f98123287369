import Glibc
import LiveHost

extension SenderAllowList {
    /// The default allow-list for a receiver bound to `host`: loopback when it is a loopback
    /// address; otherwise loopback plus the IPv4 subnets of the interface that owns `host`
    /// (of every interface for 0.0.0.0).
    public static func defaultFor(bindHost host: String) -> SenderAllowList {
        var list = SenderAllowList.loopback
        guard let bound = parseIPv4(Substring(host)), bound >> 24 != 127 else { return list }
        var interfaces: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&interfaces) == 0 else { return list }
        defer { freeifaddrs(interfaces) }
        var cursor = interfaces
        while let entry = cursor?.pointee {
            cursor = entry.ifa_next
            guard let address = entry.ifa_addr, let mask = entry.ifa_netmask,
                  address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let bits = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            guard bound == 0 || bound == ip else { continue }
            list.formUnion(SenderAllowList(networks: [Network(address: ip, prefixLength: bits.nonzeroBitCount)]))
        }
        return list
    }
}
