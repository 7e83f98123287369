/// The studio's access decisions as pure functions of what a request carries, so that every rule is
/// tested without a socket (the server only asks and obeys):
///
/// - the `Host` header must name this server (localhost, 127.0.0.1, [::1], or the bound address),
///   which defeats DNS rebinding;
/// - off loopback a token is required: the URL's `?token=` (exchanged for an HttpOnly, SameSite=Strict
///   cookie) or that cookie; without it requests get 401, WebSocket upgrades 403;
/// - a WebSocket upgrade with an `Origin` must come from this server's own origin (a page of another
///   site in the same browser cannot drive the studio); one without `Origin` (not a browser) needs the token.
public struct StudioSecurity: Sendable {
    /// The address the server is bound to ("127.0.0.1", "0.0.0.0", "192.168.1.20", "::1").
    public var bindHost: String
    public var port: Int
    /// nil on loopback without a chosen token: no token needed.
    public var token: String?
    /// Extra names the Host header may carry (the machine's LAN addresses when bound to 0.0.0.0).
    public var extraHosts: Set<String>

    /// Name of the cookie that carries the token.
    public static let cookieName = "prospero_studio"

    public init(bindHost: String, port: Int, token: String?, extraHosts: Set<String> = []) {
        self.bindHost = bindHost
        self.port = port
        self.token = token
        self.extraHosts = extraHosts
    }

    /// True for 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h == "::1" || h == "[::1]" || h.hasPrefix("127.")
    }

    public enum Decision: Equatable, Sendable {
        case allow
        /// Allowed, and the response sets the token cookie (the request carried `?token=`).
        case allowSettingCookie
        /// 400: the Host header is missing or names another server.
        case badHost
        /// 401: a page or resource without the token.
        case unauthorized
        /// 403: a WebSocket upgrade from another origin, or without the token.
        case forbidden
        /// 429: this address guessed too many wrong tokens (``StudioGuessLimiter``); everything it asks is refused a while.
        case tooManyGuesses

        public var status: Int {
            switch self {
            case .allow, .allowSettingCookie: 200
            case .badHost: 421
            case .unauthorized: 401
            case .forbidden: 403
            case .tooManyGuesses: 429
            }
        }
    }

    /// The host part of a Host header ("127.0.0.1:8080" → "127.0.0.1", "[::1]:8080" → "::1"), lower-cased.
    public static func hostName(ofHeader header: String) -> String {
        var h = header.lowercased()
        if h.hasPrefix("[") {
            if let end = h.firstIndex(of: "]") { return String(h[h.index(after: h.startIndex)..<end]) }
            return h
        }
        if let colon = h.lastIndex(of: ":"), h.firstIndex(of: ":") == colon { h = String(h[..<colon]) }
        return h
    }

    /// The Host header names this server: a loopback name, the bound address, or an extra host.
    public func hostAllowed(_ header: String?) -> Bool {
        guard let header, !header.isEmpty else { return false }
        let name = Self.hostName(ofHeader: header)
        if name == "localhost" || name == "127.0.0.1" || name == "::1" { return true }
        if name == bindHost.lowercased() && bindHost != "0.0.0.0" && bindHost != "::" { return true }
        return extraHosts.contains(name)
    }

    /// The `Set-Cookie` value that stores the token (HttpOnly, SameSite=Strict, the whole site).
    public var setCookie: String? {
        token.map { "\(Self.cookieName)=\($0); Path=/; HttpOnly; SameSite=Strict" }
    }

    /// Compares in time independent of where the strings differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return diff == 0
    }

    private func hasToken(_ credentials: StudioCredentials) -> (ok: Bool, fromQuery: Bool) {
        guard let token else { return (true, false) }
        if let q = credentials.queryToken, Self.constantTimeEqual(q, token) { return (true, true) }
        if let c = credentials.cookieToken, Self.constantTimeEqual(c, token) { return (true, false) }
        return (false, false)
    }

    /// An HTTP request (page, script, style).
    public func decideRequest(host: String?, credentials: StudioCredentials) -> Decision {
        guard hostAllowed(host) else { return .badHost }
        let t = hasToken(credentials)
        guard t.ok else { return .unauthorized }
        return t.fromQuery ? .allowSettingCookie : .allow
    }

    /// An HTTP request whose `?token=` and Cookie header are given apart.
    public func decideRequest(host: String?, queryToken: String?, cookie: String?) -> Decision {
        decideRequest(host: host, credentials: StudioCredentials(queryToken: queryToken, cookieToken: StudioCredentials.cookieToken(cookie)))
    }

    /// The origins this server serves ("http://127.0.0.1:8080", …), as browsers write `Origin`.
    public func servedOrigin(_ origin: String, scheme: String) -> Bool {
        let o = origin.lowercased()
        let prefix = scheme + "://"
        guard o.hasPrefix(prefix) else { return false }
        let hostPort = String(o.dropFirst(prefix.count))
        guard !hostPort.contains("/") else { return false }
        let name = Self.hostName(ofHeader: hostPort)
        let portPart: String
        if hostPort.hasPrefix("[") {
            portPart = hostPort.split(separator: "]", maxSplits: 1).last.map { String($0.dropFirst()) } ?? ""
        } else {
            portPart = hostPort.contains(":") ? String(hostPort.split(separator: ":").last!) : ""
        }
        let defaultPort = scheme == "https" ? 443 : 80
        guard (Int(portPart) ?? (portPart.isEmpty ? defaultPort : -1)) == port else { return false }
        return hostAllowed(name.contains(":") ? "[\(name)]" : name)
    }

    /// A WebSocket upgrade: Host as for requests; an `Origin` must be this server's own (and then the
    /// cookie or `?token=` must be there too when a token is set); no `Origin` (not a browser) needs the token.
    public func decideUpgrade(host: String?, origin: String?, credentials: StudioCredentials, scheme: String = "http") -> Decision {
        guard hostAllowed(host) else { return .badHost }
        if let origin {
            guard servedOrigin(origin, scheme: scheme) else { return .forbidden }
            return hasToken(credentials).ok ? .allow : .forbidden
        }
        // Not a browser: only the token itself lets it in, even on loopback when a token is set.
        return hasToken(credentials).ok ? .allow : .forbidden
    }

    /// A WebSocket upgrade whose `?token=` and Cookie header are given apart.
    public func decideUpgrade(host: String?, origin: String?, queryToken: String?, cookie: String?, scheme: String = "http") -> Decision {
        decideUpgrade(host: host, origin: origin,
                      credentials: StudioCredentials(queryToken: queryToken, cookieToken: StudioCredentials.cookieToken(cookie)), scheme: scheme)
    }

    /// A refusal that a wrong token caused (not a foreign Host or Origin): one guess for ``StudioGuessLimiter``.
    public func isWrongToken(_ decision: Decision, _ credentials: StudioCredentials) -> Bool {
        token != nil && credentials.presented && (decision == .unauthorized || decision == .forbidden) && !hasToken(credentials).ok
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
