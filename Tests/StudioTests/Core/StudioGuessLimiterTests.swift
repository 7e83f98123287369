import Studio
import Testing

@Suite("Studio token guessing")
struct StudioGuessLimiterTests {
    @Test("more than 10 wrong tokens in a second block the address for a minute, once; others are not affected")
    func blocks() {
        var limiter = StudioGuessLimiter()
        var blocked: [Bool] = []
        for i in 0..<10 { blocked.append(limiter.wrongToken(from: "10.0.0.9", now: 5 + Double(i) * 0.05)) }
        #expect(!blocked.contains(true))
        var checks: [Bool] = []
        checks.append(limiter.isBlocked("10.0.0.9", now: 5.6))
        let eleventh = limiter.wrongToken(from: "10.0.0.9", now: 5.6)
        let twelfth = limiter.wrongToken(from: "10.0.0.9", now: 5.7)
        #expect(eleventh, "the 11th within a second blocks")
        #expect(!twelfth, "a block is reported once")
        checks.append(limiter.isBlocked("10.0.0.9", now: 6))
        checks.append(limiter.isBlocked("10.0.0.9", now: 65.5))
        checks.append(limiter.isBlocked("10.0.0.9", now: 65.7))
        checks.append(limiter.isBlocked("10.0.0.10", now: 6))
        #expect(checks == [false, true, true, false, false], "a minute after the block it may try again; another address is free")
        #expect(limiter.blocks == 1 && limiter.refused == 2)
    }

    @Test("10 wrong tokens a second, every second, never block (the limit is per second)")
    func atTheLimit() {
        var limiter = StudioGuessLimiter()
        var blocked = false
        for second in 0..<5 {
            for i in 0..<10 { blocked = limiter.wrongToken(from: "a", now: Double(second) + Double(i) * 0.09) || blocked }
        }
        let now = limiter.isBlocked("a", now: 5)
        #expect(!blocked && !now && limiter.blocks == 0)
    }

    @Test("a flood of addresses keeps the table bounded")
    func bounded() {
        var limiter = StudioGuessLimiter(capacity: 100)
        for i in 0..<10_000 { limiter.wrongToken(from: "10.\(i / 256).\(i % 256).1", now: Double(i) * 0.01) }
        #expect(limiter.trackedAddresses <= 100)
    }
}
