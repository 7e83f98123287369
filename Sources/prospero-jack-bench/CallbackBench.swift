import Foundation
import Glibc
import ProsperoJACK

/// `prospero-jack-bench callbacks`: a live client with a representative workload (``BenchVoices``, played by the MIDI
/// of `--midi-in`) for `--seconds`, every process callback timed in wall time and in its thread's CPU time, with
/// the page faults and context switches inside callbacks, so that preemption (wall ≫ CPU, involuntary switches),
/// our own work (CPU time) and in-process causes (page faults) can be told apart. The full report goes to
/// standard error; the table gets the distributions.
enum CallbackBench {
    static func rows(on server: BenchServer, seconds: Double, midiIn: [String], lockMemory: Bool) -> [BenchRow] {
        let period = server.period
        func failed(_ error: Any) -> [BenchRow] {
            [BenchRow(figure: "process callback", period: period, sample: "", median: "", spread: "", failure: "\(error)")]
        }
        let client: JACKClient
        do {
            client = try JACKClient(configuration: JACKClient.Configuration(clientName: "BenchVoices", serverName: server.name))
        } catch {
            return failed(error)
        }
        let rate = client.sampleRate
        // Room for every callback of the run (and a margin), allocated and touched before activation.
        let timing = JACKCallbackTiming(capacity: Int(seconds * Double(rate) / Double(max(period, 1))) + 4096)
        let before = processUsage()
        do {
            try client.activate(handler: BenchVoices(), timing: timing)
            for source in midiIn { try client.connect(source, to: client.ports.midiInput) }
        } catch {
            client.close()
            return failed(error)
        }
        // After activation: the handler is prepared and JACK's buffers are mapped; lock what exists now.
        let lock = lockMemory ? MemoryLock.lockCurrentPages().description : "not attempted (--no-lock-memory)"
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline, !client.isServerGone { usleep(10_000) }
        let serverGone = client.isServerGone
        client.stop()
        let after = processUsage()
        let statistics = client.statistics
        client.close()
        if serverGone { return failed("the server went away during the run") }

        let report = timing.report(periodNanoseconds: Int64(period) * 1_000_000_000 / Int64(max(rate, 1)))
        let log = FileHandle.standardError
        log.write(Data(("callbacks at -p \(period): \(rate) Hz, server realtime \(client.isRealtime ? "yes" : "no"), memory: \(lock)\n"
            + report.lines.map { "  \($0)\n" }.joined()
            + "  whole process during the run: \(after.minorFaults - before.minorFaults) minor and \(after.majorFaults - before.majorFaults) "
            + "major page faults, \(after.involuntarySwitches - before.involuntarySwitches) involuntary context switches (all threads)\n").utf8))
        func us(_ ns: Int64) -> String { String(format: "%.1f", Double(ns) / 1000) }
        func distribution(_ d: JACKCallbackDistribution) -> (median: String, spread: String) {
            ("\(us(d.median)) µs", "p99 \(us(d.p99)), p99.9 \(us(d.p999)), max \(us(d.maximum)) µs")
        }
        let causes = JACKXrunCauses.Cause.allCases.compactMap { cause in
            (report.xruns.counts[cause] ?? 0) > 0 ? "\(cause.rawValue) \(report.xruns.counts[cause]!)" : nil
        }
        let sample = "\(report.callbacks) callbacks, \(statistics.xruns) xruns" + (causes.isEmpty ? "" : " (\(causes.joined(separator: ", ")))")
        let wall = distribution(report.wall), cpu = distribution(report.cpu)
        let scheduling = report.scheduling?.description ?? "unknown"
        return [
            BenchRow(figure: "process callback, wall time (our work + preemption)", period: period, sample: sample, median: wall.median,
                     spread: wall.spread, allEvents: "\(report.overPeriod) over the period; \(report.involuntarySwitches) involuntary switches; \(scheduling)"),
            BenchRow(figure: "process callback, thread CPU time (our work)", period: period, sample: sample, median: cpu.median,
                     spread: cpu.spread, allEvents: "\(report.minorFaults) minor, \(report.majorFaults) major page faults in callbacks",
                     checks: BenchTargets.callbacks(report, periods: statistics.periods)),
        ]
    }

    /// The whole process's page faults and involuntary context switches (getrusage RUSAGE_SELF).
    static func processUsage() -> (minorFaults: Int, majorFaults: Int, involuntarySwitches: Int) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return (usage.ru_minflt, usage.ru_majflt, usage.ru_nivcsw)
    }
}
