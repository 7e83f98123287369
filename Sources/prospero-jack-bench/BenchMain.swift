import Foundation
import Glibc
import ProsperoJACK

/// `prospero-jack-bench [--server NAME] [--seconds N] [--midi-in PORT] [--no-lock-memory]`: runs a
/// live client with a representative workload and prints xruns and the callback time distribution
/// in wall time and in the callback thread's CPU time, with page faults and context switches inside
/// callbacks, so that preemption (wall ≫ CPU, involuntary switches) and our own work (CPU time) or
/// in-process causes (page faults) can be told apart (run by scripts/bench-jack).
@main
struct BenchMain {
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(1)
    }

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var server: String?
        var seconds = 60.0
        var midiIn: [String] = []
        var lockMemory = true
        while !arguments.isEmpty {
            let flag = arguments.removeFirst()
            if flag == "--no-lock-memory" {
                lockMemory = false
                continue
            }
            if flag == "--help" || flag == "-h" {
                print("usage: prospero-jack-bench [--server NAME] [--seconds N] [--midi-in PORT]… [--no-lock-memory]")
                exit(0)
            }
            guard let value = arguments.first else { fail("\(flag) needs a value") }
            arguments.removeFirst()
            switch flag {
            case "--server": server = value
            case "--seconds":
                guard let s = Double(value), s > 0, s.isFinite else { fail("--seconds must be a positive number, not \(value)") }
                seconds = s
            case "--midi-in": midiIn.append(value)
            default: fail("unknown option \(flag)")
            }
        }

        let client: JACKClient
        do {
            client = try JACKClient(configuration: JACKClient.Configuration(clientName: "ProsperoBench", serverName: server))
        } catch {
            fail("\(error)")
        }
        let rate = client.sampleRate, period = client.bufferSize
        // Room for every callback of the run (and a margin), allocated and touched before activation.
        let timing = JACKCallbackTiming(capacity: Int(seconds * Double(rate) / Double(max(period, 1))) + 4096)
        let before = processUsage()
        do {
            try client.activate(handler: BenchVoices(), timing: timing)
            for source in midiIn { try client.connect(source, to: client.ports.midiInput) }
        } catch {
            fail("\(error)")
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

        let report = timing.report(periodNanoseconds: Int64(period) * 1_000_000_000 / Int64(max(rate, 1)))
        print("client \(client.name): \(rate) Hz, period \(period) frames, server realtime \(client.isRealtime ? "yes" : "no")")
        print("memory: \(lock)")
        for line in report.lines { print(line) }
        print("whole process during the run: \(after.minorFaults - before.minorFaults) minor and "
            + "\(after.majorFaults - before.majorFaults) major page faults, \(after.involuntarySwitches - before.involuntarySwitches) "
            + "involuntary context switches (all threads; the lines above are the callback thread inside callbacks)")
        func us(_ ns: Int64) -> Double { (Double(ns) / 100).rounded() / 10 }
        print("RESULT seconds=\(seconds) periods=\(statistics.periods) frames=\(statistics.frames) xruns=\(statistics.xruns) "
            + "callbacks=\(report.callbacks) "
            + "wall_median_us=\(us(report.wall.median)) wall_p99_us=\(us(report.wall.p99)) wall_p999_us=\(us(report.wall.p999)) "
            + "wall_max_us=\(us(report.wall.maximum)) wall_mean_us=\(us(report.wall.mean)) "
            + "cpu_median_us=\(us(report.cpu.median)) cpu_p99_us=\(us(report.cpu.p99)) cpu_p999_us=\(us(report.cpu.p999)) "
            + "cpu_max_us=\(us(report.cpu.maximum)) cpu_mean_us=\(us(report.cpu.mean)) "
            + "callback_minflt=\(report.minorFaults) callback_majflt=\(report.majorFaults) "
            + "callback_nivcsw=\(report.involuntarySwitches) callback_nvcsw=\(report.voluntarySwitches) "
            + "over_period=\(report.overPeriod) over_period_work=\(report.overPeriodByWork) "
            + "over_period_switch=\(report.overPeriodBySwitch) over_period_fault=\(report.overPeriodByFault) "
            + "process_minflt=\(after.minorFaults - before.minorFaults) process_majflt=\(after.majorFaults - before.majorFaults) "
            + "process_nivcsw=\(after.involuntarySwitches - before.involuntarySwitches) "
            + "longest_callback_us=\(Double(statistics.longestCallbackNanoseconds) / 1000) "
            + "midi_out_dropped=\(statistics.midiOutputDropped) midi_in_lost=\(statistics.midiInputLost) "
            + "interval_p999_us=\(us(report.interval.p999)) interval_max_us=\(us(report.interval.maximum)) skipped_cycles=\(report.skippedCycles) "
            + report.xruns.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "xruns_\($0.key.rawValue)=\($0.value) " }.joined()
            + "memory_locked=\(lock.hasPrefix("locked") ? 1 : 0) "
            + "scheduling=\"\(report.scheduling?.description ?? "unknown")\" server_gone=\(serverGone ? 1 : 0)")
        exit(serverGone ? 1 : 0)
    }

    /// The whole process's page faults and involuntary context switches (getrusage RUSAGE_SELF).
    static func processUsage() -> (minorFaults: Int, majorFaults: Int, involuntarySwitches: Int) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return (usage.ru_minflt, usage.ru_majflt, usage.ru_nivcsw)
    }
}
