/// The token a request carries, read once from what the HTTP layer parsed: the request target's
/// `?token=` and the `prospero_studio` cookie. The one token parser of the studio: pages, scripts and
/// WebSocket upgrades all go through it before ``StudioSecurity`` compares.
public struct StudioCredentials: Sendable, Equatable {
    /// The value of `token=` in the target's query, percent-decoded (nil when absent).
    public var queryToken: String?
    /// The value of the `prospero_studio` cookie (nil when absent).
    public var cookieToken: String?

    public init(queryToken: String?, cookieToken: String?) {
        self.queryToken = queryToken
        self.cookieToken = cookieToken
    }

    /// - Parameters:
    ///   - target: the request target as the HTTP parser gave it (`/ws?token=abc`, `/?a=1&token=abc#x`).
    ///   - cookie: the `Cookie` header (several joined with `; `), or nil.
    public init(target: String, cookie: String?) {
        self.init(queryToken: Self.queryToken(inTarget: target), cookieToken: Self.cookieToken(cookie))
    }

    /// A token was presented (right or wrong): a refusal then counts as a guess.
    public var presented: Bool { queryToken != nil || cookieToken != nil }

    /// `token=` in the query of `target` (the first one), percent-decoded; nil when there is none or it does not decode.
    public static func queryToken(inTarget target: String) -> String? {
        guard let question = target.firstIndex(of: "?") else { return nil }
        var query = target[target.index(after: question)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            return percentDecoded(pair.dropFirst("token=".count))
        }
        return nil
    }

    /// The token in a Cookie header, if any.
    public static func cookieToken(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingSpaces.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == Substring(StudioSecurity.cookieName) { return String(pair[1]) }
        }
        return nil
    }

    /// `%XX` escapes and `+` (a space in a form query) decoded; nil for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"): bytes.append(0x20)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
