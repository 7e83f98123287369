import Foundation
import Glibc
import ProsperoJACK
import ProsperoTestSupport
import Testing

extension JACKClientTests {
    /// `JACKCallbackTiming` in a client on `jackd -d dummy`: one sample per callback, and the report's
    /// figures consistent with each other and with the client's own counters. No timing thresholds.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func callbackTimingRecordsEveryCallbackConsistently() throws {
        let server = try JACKTestServer(period: 256)
        let client = try JACKClient(configuration: server.configuration)
        let timing = JACKCallbackTiming(capacity: 4096)
        try client.activate(handler: SineHandler(leftFrequency: 440, rightFrequency: 660, peakDBFS: -12), timing: timing)
        try waitUntil("100 callbacks") { timing.recordedCount >= 100 }
        client.stop()
        let statistics = client.statistics
        let realtime = client.isRealtime
        client.close()

        let samples = timing.samples()
        let report = timing.report(periodNanoseconds: 256 * 1_000_000_000 / 48_000)
        #expect(report.callbacks == samples.count)
        #expect(samples.count == statistics.periods, "one sample per callback (\(samples.count) vs \(statistics.periods) periods)")
        #expect(report.droppedCount == 0)
        for d in [report.wall, report.cpu] {
            #expect(d.median > 0)
            #expect(d.median <= d.p99 && d.p99 <= d.p999 && d.p999 <= d.maximum, "\(d)")
            #expect(d.mean <= d.maximum)
        }
        // CPU time is measured inside the wall-clock window: in aggregate it cannot exceed it.
        let wallTotal = samples.reduce(0) { $0 + $1.wallNanoseconds }
        let cpuTotal = samples.reduce(0) { $0 + $1.cpuNanoseconds }
        #expect(cpuTotal <= wallTotal, "CPU \(cpuTotal) ns > wall \(wallTotal) ns")
        #expect(report.wall.maximum <= Int64(statistics.longestCallbackNanoseconds), "the client's longest callback spans the sampled window")
        #expect(report.minorFaults == samples.reduce(0) { $0 + Int($1.minorFaults) })
        #expect(report.overPeriodByWork + report.overPeriodBySwitch + report.overPeriodByFault <= report.overPeriod)
        #expect(report.first == samples.first)
        let scheduling = try #require(report.scheduling, "the callback stored its thread's policy")
        #expect(scheduling.isRealtime == realtime, "\(scheduling) on a server with realtime \(realtime)")
        #expect(report.lines.contains { $0.hasPrefix("wall time (our work + preemption): median ") })
        #expect(report.lines.contains { $0.hasPrefix("thread CPU time (our work only):  median ") })
        #expect(report.xruns.total == statistics.xruns, "every xrun the client counted is judged")
        #expect(report.interval.median > 0 && report.interval.maximum >= report.interval.median)
    }

    /// One callback that works for two periods of CPU time makes the server report an xrun, and the timing puts
    /// that xrun down to our callback's work (its CPU time alone exceeded the period), not to a late wake-up.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func callbackTimingPutsAnOverrunningCallbacksXrunDownToIt() throws {
        // Asynchronous: the server's next cycle does not wait for the overrunning callback, so the xrun falls in it.
        let server = try JACKTestServer(period: 256, synchronous: false)
        let client = try JACKClient(configuration: server.configuration)
        let timing = JACKCallbackTiming(capacity: 4096)
        let handler = OverrunningHandler(atCallback: 50, cpuNanoseconds: 2 * 256 * 1_000_000_000 / 48_000)
        try client.activate(handler: handler, timing: timing)
        try waitUntil("the overrun and an xrun after it", timeout: .seconds(20)) {
            handler.overran.load(ordering: .acquiring) && client.statistics.xruns > 0 && timing.recordedCount > 100
        }
        // The notification thread reports the xrun on its own time: wait until the timing has it too.
        try waitUntil("the xrun's notification") { timing.xrunTimes().count == client.statistics.xruns }
        client.stop()
        client.close()
        let period: Int64 = 256 * 1_000_000_000 / 48_000
        let report = timing.report(periodNanoseconds: period)
        let burner = try #require(timing.samples().first { $0.cpuNanoseconds >= 2 * period }, "the overrunning callback was recorded")
        let cause = try #require(JACKXrunCauses.cause(of: burner, periodNanoseconds: period))
        #expect(cause == .ourWork, "twice the period of CPU time is our work, however long it waited besides: \(burner)")
        // On a loaded machine a later callback, stretched by waiting for its CPU, may be the one matched.
        let ours = report.xruns.counts[.ourWork]! + report.xruns.counts[.preempted]! + report.xruns.counts[.pageFaults]!
        #expect(ours >= 1, "the overrun explains an xrun: \(report.xruns.line)")
        #expect(report.lines.contains(report.xruns.line))
    }
}
