import Glibc
import Synchronization

/// Every open connection of the studio, counted in total and per ``StudioAddressBlock`` against
/// ``StudioConnectionLimits``, with a way to close each at once (the studio's stop). One per server; the
/// ``StudioConnectionGuard`` at the front of each connection asks it to be let in and tells it when it goes.
public final class StudioConnectionCensus: Sendable {
    /// What the census has seen since the server started.
    public struct Counts: Sendable, Equatable {
        /// Connections open now.
        public var open = 0
        /// The most open at once.
        public var highWater = 0
        /// Closed on arrival because the studio held its total.
        public var refusedTotal = 0
        /// Closed on arrival because their address held its share.
        public var refusedPerAddress = 0
        /// Closed because bytes waited unwritten for the write timeout (a peer that stopped reading).
        public var cutStalled = 0
        /// Closed because they sat idle, took too long over a handshake or a request head, or never said hello.
        public var cutTimedOut = 0
    }

    private struct State {
        var counts = Counts()
        var perBlock: [StudioAddressBlock: Int] = [:]
        var closers: [Int: @Sendable () -> Void] = [:]
        var next = 0
    }

    public let limits: StudioConnectionLimits
    /// The total in force: ``StudioConnectionLimits/maximumConnections``, lowered to keep the headroom below the
    /// descriptor limit.
    public let maximumConnections: Int
    private let state = Mutex(State())

    /// - Parameter descriptorLimit: the process's descriptor limit (nil: read `RLIMIT_NOFILE`).
    public init(limits: StudioConnectionLimits, descriptorLimit: Int? = nil) {
        self.limits = limits
        let descriptors = descriptorLimit ?? Self.descriptorLimit()
        maximumConnections = max(1, min(limits.maximumConnections, descriptors - limits.descriptorHeadroom))
    }

    /// A ticket for a new connection from `block` (nil: an address not counted per block), or nil when it must be
    /// closed. `close` closes it at once (called from any thread).
    public func admit(_ block: StudioAddressBlock?, close: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { s in
            guard s.counts.open < maximumConnections else {
                s.counts.refusedTotal += 1
                return nil
            }
            if let block {
                guard s.perBlock[block, default: 0] < limits.maximumConnectionsPerAddress else {
                    s.counts.refusedPerAddress += 1
                    return nil
                }
                s.perBlock[block, default: 0] += 1
            }
            s.counts.open += 1
            s.counts.highWater = max(s.counts.highWater, s.counts.open)
            s.next += 1
            s.closers[s.next] = close
            return s.next
        }
    }

    /// The connection with `ticket` from `block` closed.
    public func leave(_ ticket: Int, block: StudioAddressBlock?) {
        state.withLock { s in
            guard s.closers.removeValue(forKey: ticket) != nil else { return }
            s.counts.open -= 1
            if let block {
                let left = s.perBlock[block, default: 1] - 1
                s.perBlock[block] = left > 0 ? left : nil
            }
        }
    }

    func countStalled() { state.withLock { $0.counts.cutStalled += 1 } }
    func countTimedOut() { state.withLock { $0.counts.cutTimedOut += 1 } }

    public var counts: Counts { state.withLock { $0.counts } }

    /// "connections: at most 12 open at once; 0 refused (the studio full), 0 refused (their address full),
    /// 0 cut (not reading), 0 cut (idle or too slow)".
    public var summary: String {
        let c = counts
        return "connections: at most \(c.highWater) open at once; \(c.refusedTotal) refused (the studio full), "
            + "\(c.refusedPerAddress) refused (their address full), \(c.cutStalled) cut (not reading), \(c.cutTimedOut) cut (idle or too slow)"
    }

    /// Closes every open connection now, whatever it waits for (the socket goes; nothing more is written).
    public func closeAll() {
        let closers = state.withLock { Array($0.closers.values) }
        for close in closers { close() }
    }

    /// The soft descriptor limit, raised first to the hard one (at most 65 536): a studio asked for 512 connections
    /// should not be held to a shell's default of 1 024 descriptors minus everything else it opens.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        let wanted = min(limit.rlim_max, 65_536)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(min(limit.rlim_cur, 1 << 30))
    }
}
