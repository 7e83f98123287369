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
        let server = try JACKTestServer(period: 256)
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

    /// The `prospero-jack-bench` executable built next to this test bundle.
    static var jackBench: URL? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in [directory, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("prospero-jack-bench")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    static func runJackBench(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let bench = try TestPeers.require(jackBench, "prospero-jack-bench (build the package first)")
        let process = Process()
        process.executableURL = bench
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try waitUntil("prospero-jack-bench", timeout: .seconds(20)) { !process.isRunning }
        return (process.terminationStatus,
                String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// A one-second `prospero-jack-bench` run: the report names every figure, and they agree
    /// (quantiles in order, CPU within wall time in aggregate, faults and switches counted).
    @Test(.enabled(if: Peers.runnable("jackd")))
    func jackBenchReportsWallAndCPUTimeFaultsAndSwitches() throws {
        let rate = 48_000.0, period = 256.0
        let server = try JACKTestServer(sampleRate: Int(rate), period: Int(period))
        let result = try Self.runJackBench(["--server", server.name, "--seconds", "1"])
        #expect(result.status == 0, "\(result.error)")
        let line = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, "\(result.output)")
        var fields: [String: String] = [:]
        for token in line.dropFirst("RESULT ".count).split(separator: " ") {
            let pair = token.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        func number(_ key: String) -> Double? { fields[key].flatMap(Double.init) }
        let keys = ["periods", "xruns", "callbacks", "wall_median_us", "wall_p99_us", "wall_p999_us", "wall_max_us", "wall_mean_us",
                    "cpu_median_us", "cpu_p99_us", "cpu_p999_us", "cpu_max_us", "cpu_mean_us", "callback_minflt",
                    "callback_majflt", "callback_nivcsw", "callback_nvcsw", "over_period", "process_minflt", "process_nivcsw",
                    "memory_locked"]
        for key in keys { #expect(number(key) != nil, "\(key) missing or not a number in \(line)") }
        #expect(fields["scheduling"] != nil)
        guard keys.allSatisfy({ number($0) != nil }) else { return }
        #expect(number("callbacks")! > 50 && number("callbacks")! <= number("periods")!)
        for kind in ["wall", "cpu"] {
            let m = number("\(kind)_median_us")!, p99 = number("\(kind)_p99_us")!
            let p999 = number("\(kind)_p999_us")!, max = number("\(kind)_max_us")!
            #expect(m <= p99 && p99 <= p999 && p999 <= max, "\(kind): \(m) \(p99) \(p999) \(max)")
        }
        #expect(number("cpu_mean_us")! <= number("wall_mean_us")! + 0.1, "CPU within wall time in aggregate")
        // over_period counts the callbacks whose wall time exceeded the period (5333.3 µs): none exactly when
        // the longest stayed within it (figures rounded to 0.1 µs); each late one has at most one cause.
        let periodMicroseconds = period / rate * 1e6
        let over = number("over_period")!, wallMax = number("wall_max_us")!
        #expect(over >= 0 && over <= number("callbacks")!)
        if over == 0 {
            #expect(wallMax <= periodMicroseconds + 0.1, "no callback over the period, yet the longest took \(wallMax) µs")
        } else {
            #expect(wallMax >= periodMicroseconds - 0.1, "\(over) callbacks over the period, yet the longest took \(wallMax) µs")
        }
        let causes = ["over_period_work", "over_period_switch", "over_period_fault"].compactMap(number)
        #expect(causes.count == 3 && causes.reduce(0, +) <= over, "causes \(causes) of \(over) late callbacks")
        #expect(result.output.contains("memory: "), "the memory lock's outcome is stated")
        #expect(result.output.contains("callback thread scheduling: "))
    }

    /// Bad options end with a message naming them, not a run with defaults.
    @Test(.enabled(if: Peers.required || JACKClientTests.jackBench != nil))
    func jackBenchRejectsBadOptions() throws {
        let bad = try Self.runJackBench(["--seconds", "soon"])
        #expect(bad.status == 1)
        #expect(bad.error.contains("--seconds must be a positive number, not soon"), "\(bad.error)")
        let unknown = try Self.runJackBench(["--period", "64"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("unknown option --period"), "\(unknown.error)")
    }
}
