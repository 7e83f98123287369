import NIOCore

/// How many connections the studio holds and how long each may take, so that no peer on the LAN can fill its
/// descriptors or memory with connections that do nothing. Every figure applies before any token is checked.
public struct StudioConnectionLimits: Sendable, Equatable {
    /// Open connections at most (1…65 536). A connection past it is closed as soon as it is accepted. The studio also
    /// keeps ``descriptorHeadroom`` descriptors free below the process's limit, so the cap in force may be lower.
    public var maximumConnections = 512
    /// Open connections from one address at most (1…65 536): an IPv4 address, one IPv6 /64, and the whole of
    /// 127.0.0.0/8 count as one address each (``StudioAddressBlock``).
    public var maximumConnectionsPerAddress = 64
    /// Seconds from accepting a connection to the end of its TLS handshake (`--tls` only), 0.1…3 600.
    public var handshakeTimeout = 10.0
    /// Seconds from a connection's start (after its handshake) to its first complete request head, 0.1…3 600:
    /// a slow or silent client (slowloris) is closed after it.
    public var headerTimeout = 10.0
    /// Seconds a connection may wait with nothing to do, 0.1…3 600: a keep-alive connection between a response and
    /// its next request head, and a WebSocket from its upgrade to its `hello`.
    public var idleTimeout = 30.0
    /// Seconds that bytes may wait to be written with none of them going out, 0.1…3 600: a peer that stops reading
    /// is closed after it (its socket freed, not only its queue).
    public var writeTimeout = 10.0
    /// Descriptors kept free below the process's limit (`RLIMIT_NOFILE`) for the studio's own files, the audio
    /// server and the camera, so that the connection cap is reached before the descriptor limit is.
    public var descriptorHeadroom = 64

    public init() {}

    /// The ranges above; nil when every value is in range, else what is out of it.
    public var problem: String? {
        let counts = [("maximum connections", maximumConnections), ("maximum connections per address", maximumConnectionsPerAddress)]
        for (name, value) in counts where !(1...65_536).contains(value) { return "\(name) must be 1…65536 (got \(value))" }
        let times = [("handshake timeout", handshakeTimeout), ("header timeout", headerTimeout),
                     ("idle timeout", idleTimeout), ("write timeout", writeTimeout)]
        for (name, value) in times where !(value >= 0.1 && value <= 3600) { return "\(name) must be 0.1…3600 seconds (got \(value))" }
        return nil
    }

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }
}
