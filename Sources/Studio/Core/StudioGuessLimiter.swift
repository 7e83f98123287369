/// Refuses token guessing: an address that presents more than ``limit`` wrong tokens within one second
/// is refused everything (429) for ``blockSeconds``, whatever it presents, so that an 8-character
/// `--token` cannot be guessed at LAN speed. Pure: times are given (monotonic seconds), addresses are
/// strings; the server asks before deciding and reports each wrong token after.
public struct StudioGuessLimiter: Sendable {
    /// Wrong tokens one address may present within a second (the next one blocks it).
    public var limit: Int
    /// How long a blocked address is refused, seconds.
    public var blockSeconds: Double
    /// Addresses remembered at most (the oldest unblocked ones are forgotten first), so a flood of
    /// addresses cannot grow the server.
    public var capacity: Int

    struct Entry {
        var windowStart: Double
        var count: Int
        var blockedUntil: Double
    }

    private var entries: [String: Entry] = [:]
    /// Requests refused with 429 since start.
    public private(set) var refused = 0
    /// Times an address was blocked since start.
    public private(set) var blocks = 0

    public init(limit: Int = 10, blockSeconds: Double = 60, capacity: Int = 4096) {
        self.limit = limit
        self.blockSeconds = blockSeconds
        self.capacity = capacity
    }

    /// True while `address` is blocked; each such request is counted as refused.
    public mutating func isBlocked(_ address: String, now: Double) -> Bool {
        guard let entry = entries[address], now < entry.blockedUntil else { return false }
        refused += 1
        return true
    }

    /// `address` presented a wrong token at `now`. True when this one blocked it (the moment to log, once per block).
    @discardableResult
    public mutating func wrongToken(from address: String, now: Double) -> Bool {
        var entry = entries[address] ?? Entry(windowStart: now, count: 0, blockedUntil: -.infinity)
        if now - entry.windowStart >= 1 || now < entry.windowStart { (entry.windowStart, entry.count) = (now, 0) }
        entry.count += 1
        let blocking = entry.count > limit && now >= entry.blockedUntil
        if blocking {
            entry.blockedUntil = now + blockSeconds
            blocks += 1
        }
        if entries[address] == nil && entries.count >= capacity { forget(now: now) }
        entries[address] = entry
        return blocking
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
