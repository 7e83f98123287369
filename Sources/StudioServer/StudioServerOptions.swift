import Studio

/// How `prospero studio` serves: where, with which token and certificate.
public struct StudioServerOptions: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests); the bound port is reported by ``StudioServer/boundPort``.
    public var port = 8080
    /// Required off loopback (the command makes a random one when none is given).
    public var token: String?
    /// PEM certificate chain and private key for HTTPS (`--tls CERT KEY`).
    public var tls: (certificate: String, key: String)?
    /// Extra host names the Host header may carry (LAN addresses when bound to 0.0.0.0).
    public var extraHosts: Set<String> = []
    /// Largest WebSocket message read at all; larger ones close the socket (counted). The session's
    /// parser refuses anything over its own 16 KiB limit with an error message first.
    public var maximumFrameBytes = StudioWebSocketLimits.messageBytes
    /// Where the server's tasks prefer to run; nil is Swift's shared pool. A process whose other work
    /// blocks that pool's few threads (a test runner) gives the server its own executor so it still answers.
    public var executor: (any TaskExecutor)?
    /// Connection caps and timeouts (``StudioConnectionLimits``).
    public var limits = StudioConnectionLimits()

    public init() {}

    public var scheme: String { tls == nil ? "http" : "https" }

    public func security(boundPort: Int) -> StudioSecurity {
        StudioSecurity(bindHost: host, port: boundPort, token: token, extraHosts: extraHosts)
    }
}
