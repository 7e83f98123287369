/// Refuses token guessing: an address that presents more than ``limit`` wrong tokens within one second
/// is refused everything (429) for ``blockSeconds``, whatever it presents, so that an 8-character
/// token cannot be guessed at LAN speed. An "address" is what the server counts a peer by (one IPv4 address,
/// an IPv6 /64, all of loopback): a host with many addresses is still one. And in total: more than
/// ``totalLimit`` wrong tokens within one second, from however many addresses, refuse every token check for
/// ``totalBlockSeconds`` (``isBlockedEverywhere(now:)``), so that many hosts together guess no faster.
/// Pure: times are given (monotonic seconds), addresses are strings; the server asks before deciding and
/// reports each wrong token after.
public struct StudioGuessLimiter: Sendable {
    /// Wrong tokens one address may present within a second (the next one blocks it).
    public var limit: Int
    /// How long a blocked address is refused, seconds.
    public var blockSeconds: Double
    /// Addresses remembered at most (the oldest unblocked ones are forgotten first), so a flood of
    /// addresses cannot grow the server.
    public var capacity: Int
    /// Wrong tokens all addresses together may present within a second (the next one blocks every token check).
    public var totalLimit: Int
    /// How long every token check is refused after ``totalLimit`` was passed, seconds.
    public var totalBlockSeconds: Double

    struct Entry {
        var windowStart: Double
        var count: Int
        var blockedUntil: Double
    }

    private var entries: [String: Entry] = [:]
    /// Every address's wrong tokens together, as one entry.
    private var total = Entry(windowStart: -.infinity, count: 0, blockedUntil: -.infinity)
    /// Requests refused with 429 since start.
    public private(set) var refused = 0
    /// Times an address was blocked since start.
    public private(set) var blocks = 0

    public init(limit: Int = 10, blockSeconds: Double = 60, capacity: Int = 4096, totalLimit: Int = 40, totalBlockSeconds: Double = 10) {
        self.limit = limit
        self.blockSeconds = blockSeconds
        self.capacity = capacity
        self.totalLimit = totalLimit
        self.totalBlockSeconds = totalBlockSeconds
    }

    /// True while the total is blocked; each such request is counted as refused.
    public mutating func isBlockedEverywhere(now: Double) -> Bool {
        guard now < total.blockedUntil else { return false }
        refused += 1
        return true
    }

    /// Times every token check was blocked since start.
    public private(set) var totalBlocks = 0

    /// True while `address` is blocked; each such request is counted as refused.
    public mutating func isBlocked(_ address: String, now: Double) -> Bool {
        guard let entry = entries[address], now < entry.blockedUntil else { return false }
        refused += 1
        return true
    }

    /// `address` presented a wrong token at `now`. True when this one blocked it (the moment to log, once per block).
    /// A block of the total is counted by the same call (``totalBlocks``).
    @discardableResult
    public mutating func wrongToken(from address: String, now: Double) -> Bool {
        var entry = entries[address] ?? Entry(windowStart: now, count: 0, blockedUntil: -.infinity)
        let blocking = Self.count(&entry, now: now, limit: limit, block: blockSeconds)
        if blocking { blocks += 1 }
        if entries[address] == nil && entries.count >= capacity { forget(now: now) }
        entries[address] = entry
        if Self.count(&total, now: now, limit: totalLimit, block: totalBlockSeconds) { totalBlocks += 1 }
        return blocking
    }

    /// One more wrong token in `entry`'s one-second window; true when it starts a block.
    private static func count(_ entry: inout Entry, now: Double, limit: Int, block: Double) -> Bool {
        if now - entry.windowStart >= 1 || now < entry.windowStart { (entry.windowStart, entry.count) = (now, 0) }
        entry.count += 1
        guard entry.count > limit && now >= entry.blockedUntil else { return false }
        entry.blockedUntil = now + block
        return true
    }

    /// Addresses remembered now (for tests: flat under a flood).
    public var trackedAddresses: Int { entries.count }

    /// Drops every entry that neither blocks nor counts within the last second; if all do, the one whose block ends first.
    private mutating func forget(now: Double) {
        entries = entries.filter { now < $0.value.blockedUntil || now - $0.value.windowStart < 1 }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.blockedUntil < $1.value.blockedUntil }) {
            entries[oldest.key] = nil
        }
    }
}
