import Enobarbus
import Studio
import Synchronization

/// The studio's one access check: every page request (``StudioAccessMiddleware``) and every WebSocket
/// upgrade (``StudioUpgradeGate``) is decided here, once, from what the HTTP parser read: the token
/// through ``StudioCredentials`` (the one token parser), then ``StudioSecurity``, with
/// ``StudioGuessLimiter`` in front (an address block guessing tokens gets 429 for a minute, logged once per
/// block; many addresses guessing together block every token check but this machine's for 10 s).
public final class StudioAccess: Sendable {
    private let security: @Sendable () -> StudioSecurity
    private let scheme: String
    private let limiter: Mutex<StudioGuessLimiter>
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - security: the rules as they are now (the bound port is known once the server listens).
    ///   - log: where a new block is reported (once per block; never the token).
    public init(security: @escaping @Sendable () -> StudioSecurity, scheme: String, limiter: StudioGuessLimiter = StudioGuessLimiter(),
                log: @escaping @Sendable (String) -> Void) {
        self.security = security
        self.scheme = scheme
        self.limiter = Mutex(limiter)
        self.log = log
    }

    /// What a request is: a page or resource, or a WebSocket upgrade (Origin rules, 403).
    public enum Kind: Sendable { case page, upgrade }

    /// The decision for one request. `address`: the peer's ``StudioAddressBlock`` (nil when unknown: not limited).
    public func decide(_ kind: Kind, host: String?, origin: String?, target: String, cookie: String?,
                       address block: StudioAddressBlock?, now: Double = MonotonicClock.now()) -> StudioSecurity.Decision {
        let address = block?.description
        // This machine's own pages keep working while other hosts guess together.
        let everywhere = !(block?.isLoopback ?? false)
        if let address, limiter.withLock({ $0.isBlocked(address, now: now) || everywhere && $0.isBlockedEverywhere(now: now) }) {
            return .tooManyGuesses
        }
        let rules = security()
        let credentials = StudioCredentials(target: target, cookie: cookie)
        let decision = switch kind {
        case .page: rules.decideRequest(host: host, credentials: credentials)
        case .upgrade: rules.decideUpgrade(host: host, origin: origin, credentials: credentials, scheme: scheme)
        }
        if let address, rules.isWrongToken(decision, credentials) {
            // This wrong token blocked the total when it raised the count of such blocks (logged once per block).
            let (blocked, total, l) = limiter.withLock { l in
                let before = l.totalBlocks
                return (l.wrongToken(from: address, now: now), l.totalBlocks > before, l)
            }
            if total {
                log("studio: more than \(l.totalLimit) wrong tokens in a second from several addresses: every token check but this machine's refused (429) for \(Int(l.totalBlockSeconds)) s")
            }
            if blocked {
                log("studio: more than \(l.limit) wrong tokens in a second from \(address): refused (429) for \(Int(l.blockSeconds)) s")
                return .tooManyGuesses
            }
            if total && everywhere { return .tooManyGuesses }
        }
        return decision
    }

    /// Requests refused with 429 so far, and the blocks that caused them.
    public var guessing: (refused: Int, blocks: Int, totalBlocks: Int) { limiter.withLock { ($0.refused, $0.blocks, $0.totalBlocks) } }
}
