import Studio
import Testing

@Suite("Studio rate limiter")
struct StudioRateLimiterTests {
    @Test("120 messages a second for 60 s all pass the default limit")
    func roomFor120() {
        var limiter = StudioRateLimiter()
        var passed = 0
        for i in 0..<(120 * 60) where limiter.allow(at: Double(i) / 120) { passed += 1 }
        #expect(passed == 120 * 60)
        #expect(limiter.refused == 0)
    }

    @Test("a flood passes the burst plus the rate, no more")
    func flood() {
        var limiter = StudioRateLimiter(rate: 200, burst: 400)
        var passed = 0
        // 10 000 messages spread evenly over 1 s: 400 from the bucket + 200 refilled (one may round either way).
        for i in 0..<10_000 where limiter.allow(at: Double(i) / 10_000) { passed += 1 }
        #expect((599...601).contains(passed))
        #expect(limiter.refused == 10_000 - passed)
    }

    @Test("time going backwards never refills")
    func backwards() {
        var limiter = StudioRateLimiter(rate: 8, burst: 2)
        let answers = [5, 5, 1, 5, 5.125].map { limiter.allow(at: $0) }
        // Two from the bucket; none at an earlier time or the same instant; 1/8 s later one token is back.
        #expect(answers == [true, true, false, false, true])
    }
}
