import StudioServer
import Synchronization
import Testing

/// The census behind the connection caps: per address block and in total, the descriptor headroom, and the
/// closers that the studio's stop calls.
@Suite("Studio connection census")
struct StudioConnectionCensusTests {
    static func limits(total: Int, perAddress: Int) -> StudioConnectionLimits {
        var l = StudioConnectionLimits()
        l.maximumConnections = total
        l.maximumConnectionsPerAddress = perAddress
        return l
    }

    @Test("each block holds its share, the total holds the rest; a connection that leaves frees its place")
    func caps() {
        let census = StudioConnectionCensus(limits: Self.limits(total: 5, perAddress: 2), descriptorLimit: 10_000)
        let a = StudioAddressBlock("10.0.0.1"), b = StudioAddressBlock("10.0.0.2")
        let a1 = census.admit(a) {}, a2 = census.admit(a) {}
        #expect(a1 != nil && a2 != nil && census.admit(a) {} == nil)
        let b1 = census.admit(b) {}
        #expect(b1 != nil && census.admit(b) {} != nil)
        // Four open: one more from a third block fits the total of five, a sixth does not.
        #expect(census.admit(.loopback) {} != nil && census.admit(StudioAddressBlock("10.0.0.3")) {} == nil)
        census.leave(a1!, block: a)
        #expect(census.admit(a) {} != nil)
        let c = census.counts
        #expect(c.open == 5 && c.highWater == 5 && c.refusedPerAddress == 1 && c.refusedTotal == 1, "\(c)")
        // A ticket leaves once: a second leave changes nothing.
        census.leave(a1!, block: a)
        #expect(census.counts.open == 5)
    }

    @Test("the cap in force stays the headroom below the descriptor limit")
    func headroom() {
        let census = StudioConnectionCensus(limits: Self.limits(total: 512, perAddress: 64), descriptorLimit: 200)
        #expect(census.maximumConnections == 200 - StudioConnectionLimits().descriptorHeadroom)
        #expect(StudioConnectionCensus(limits: Self.limits(total: 512, perAddress: 64), descriptorLimit: 65_536).maximumConnections == 512)
    }

    @Test("closeAll calls every open connection's closer, and none of those that left")
    func closeAll() {
        let census = StudioConnectionCensus(limits: Self.limits(total: 10, perAddress: 10), descriptorLimit: 10_000)
        let closed = Mutex<[Int]>([])
        let tickets = (0..<3).map { i in census.admit(.loopback) { closed.withLock { $0.append(i) } }! }
        census.leave(tickets[1], block: .loopback)
        census.closeAll()
        #expect(closed.withLock { $0.sorted() } == [0, 2])
    }

    @Test("limits out of range are named")
    func ranges() {
        var l = StudioConnectionLimits()
        #expect(l.problem == nil)
        l.headerTimeout = 0
        #expect(l.problem?.contains("header timeout") == true)
        l = StudioConnectionLimits()
        l.maximumConnectionsPerAddress = 0
        #expect(l.problem?.contains("per address") == true)
    }
}
