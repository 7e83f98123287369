import ProsperoJACK
import Testing

/// How an xrun is put down to a callback of ours, from synthetic callbacks (no server).
@Suite struct JACKXrunCausesTests {
    static let period: Int64 = 1_333_333
    static let ms: UInt64 = 1_000_000

    static func callback(at startMs: UInt64, wallUs: Int64 = 30, cpuUs: Int64 = 25, faults: Int32 = 0, switches: Int32 = 0,
                         skipped: Int32 = 0) -> JACKCallbackSample {
        JACKCallbackSample(wallNanoseconds: wallUs * 1000, cpuNanoseconds: cpuUs * 1000, minorFaults: faults,
                           involuntarySwitches: switches, startNanoseconds: startMs * ms, skippedCycles: skipped)
    }

    @Test func aCallbackWithinThePeriodHasNoCause() {
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 1333, cpuUs: 1300), periodNanoseconds: Self.period) == nil)
    }

    @Test func anOverrunIsOursOnlyWhenItsCPUTimeAloneExceededThePeriod() {
        let p = Self.period
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 2000, cpuUs: 1900), periodNanoseconds: p) == .ourWork)
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 2000, cpuUs: 1334), periodNanoseconds: p) == .ourWork,
                "CPU time just over the period: ours, however long it was switched out besides")
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 2000, cpuUs: 1000), periodNanoseconds: p) == .preempted,
                "CPU time that fits in the period: the time switched out made it late")
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 2000, cpuUs: 1333), periodNanoseconds: p) == .preempted,
                "CPU time of exactly the period fits")
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 2000, cpuUs: 1900, faults: 3), periodNanoseconds: p) == .pageFaults)
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 2000, cpuUs: 40, switches: 1), periodNanoseconds: p) == .preempted)
        #expect(JACKXrunCauses.cause(of: Self.callback(at: 1, wallUs: 9000, cpuUs: 40), periodNanoseconds: p) == .preempted,
                "not running without a counted switch: the host took the virtual CPU")
    }

    @Test func eachXrunTakesTheLatestOverrunBeforeItsNotificationOnce() {
        let samples = [
            Self.callback(at: 100), Self.callback(at: 101, wallUs: 3000, cpuUs: 2900),   // our work
            Self.callback(at: 105), Self.callback(at: 106, wallUs: 3000, cpuUs: 50, switches: 2),  // preempted
            Self.callback(at: 110),
        ]
        // One xrun 4 ms after the preempted callback, one 30 ms after it (the notification thread was late: the
        // earlier overrun is still within the window), one with nothing left to explain it.
        let causes = JACKXrunCauses(xrunTimes: [110 * Self.ms, 136 * Self.ms, 140 * Self.ms], samples: samples,
                                    periodNanoseconds: Self.period)
        #expect(causes.counts[.preempted] == 1)
        #expect(causes.counts[.ourWork] == 1)
        #expect(causes.counts[.noOverrunOfOurs] == 1)
        #expect(causes.total == 3)
        #expect(causes.line.hasPrefix("xruns reported: 3: 1 our work"), "\(causes.line)")
    }

    @Test func anOverrunAfterTheNotificationOrOutsideTheWindowExplainsNothing() {
        let window = UInt64(JACKXrunCauses.matchWindowNanoseconds) / Self.ms
        let samples = [Self.callback(at: 100, wallUs: 3000, cpuUs: 2900), Self.callback(at: 500, wallUs: 3000, cpuUs: 2900)]
        let causes = JACKXrunCauses(xrunTimes: [100 + window + 10, 499].map { $0 * Self.ms }, samples: samples,
                                    periodNanoseconds: Self.period)
        #expect(causes.counts[.noOverrunOfOurs] == 2, "\(causes.counts)")
        #expect(JACKXrunCauses(xrunTimes: [], samples: samples, periodNanoseconds: Self.period).line == "xruns reported: 0")
    }

    @Test func theReportCountsIntervalsAndMissedCycles() {
        let samples = [Self.callback(at: 10), Self.callback(at: 11), Self.callback(at: 12), Self.callback(at: 16, skipped: 2)]
        let report = JACKCallbackReport(samples: samples, periodNanoseconds: Self.period, scheduling: nil,
                                        xrunTimes: [16 * Self.ms])
        #expect(report.interval.median == Int64(Self.ms))
        #expect(report.interval.maximum == Int64(4 * Self.ms))
        #expect(report.skippedCycles == 2)
        #expect(report.xruns.counts[.noOverrunOfOurs] == 1)
        #expect(report.lines.contains("cycles this client missed (frame time moved on by more than a period): 2"))
        #expect(report.lines.contains { $0.hasPrefix("xruns reported: 1: 1 no callback of ours over the period") })
    }
}
