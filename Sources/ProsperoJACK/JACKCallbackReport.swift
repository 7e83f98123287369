/// What ``JACKCallbackTiming`` recorded, summarised so that preemption and in-process causes can
/// be told apart: a callback whose wall time far exceeds its CPU time was not running (preempted,
/// or blocked), and its involuntary switches say which; CPU time itself is our work, and page
/// faults inside it are an in-process cause (first touch of memory, or memory not locked).
public struct JACKCallbackReport: Sendable, Hashable {
    /// Callbacks summarised.
    public var callbacks: Int
    /// Callbacks that ran but fell out of the ring (its capacity was smaller than the run).
    public var droppedCount: Int
    /// The period the callbacks are compared with, in nanoseconds.
    public var periodNanoseconds: Int64
    /// Wall-clock duration of the callbacks (CLOCK_MONOTONIC).
    public var wall: JACKCallbackDistribution
    /// CPU time of the callback thread during the callbacks (CLOCK_THREAD_CPUTIME_ID).
    public var cpu: JACKCallbackDistribution
    /// The first callback of the run (lazy initialisation would show here), wall and CPU.
    public var first: JACKCallbackSample?
    /// Page faults inside callbacks, without and with I/O.
    public var minorFaults: Int
    public var majorFaults: Int
    /// Callbacks with at least one page fault.
    public var callbacksWithFaults: Int
    /// Involuntary context switches inside callbacks (the thread was preempted).
    public var involuntarySwitches: Int
    /// Callbacks preempted at least once.
    public var preemptedCallbacks: Int
    /// Voluntary context switches inside callbacks (the thread blocked: should be 0).
    public var voluntarySwitches: Int
    /// Callbacks whose wall time exceeded the period.
    public var overPeriod: Int
    /// Of those, the ones whose CPU time alone exceeded the period (our work was too slow).
    public var overPeriodByWork: Int
    /// Of those, the ones preempted or blocked (an involuntary or voluntary switch) with CPU time within the period.
    public var overPeriodBySwitch: Int
    /// Of those, the ones with a page fault and neither of the above.
    public var overPeriodByFault: Int
    /// The callback thread's scheduling.
    public var scheduling: JACKThreadScheduling?
    /// From one callback's start to the next's: about a period, longer after a late wake-up (the server's
    /// thread or ours) or a cycle this client missed.
    public var interval: JACKCallbackDistribution
    /// Cycles in which this client did not run (the server's frame time moved on by more than a period).
    public var skippedCycles: Int
    /// The xruns the server reported during the recording, by cause.
    public var xruns: JACKXrunCauses

    /// - Parameter xrunTimes: when the server reported each xrun meanwhile (CLOCK_MONOTONIC ns).
    public init(samples: [JACKCallbackSample], periodNanoseconds: Int64, scheduling: JACKThreadScheduling?, droppedCount: Int = 0,
                xrunTimes: [UInt64] = []) {
        interval = JACKCallbackDistribution(zip(samples, samples.dropFirst()).map {
            Int64(bitPattern: $1.startNanoseconds &- $0.startNanoseconds)
        })
        skippedCycles = samples.reduce(0) { $0 + Int($1.skippedCycles) }
        xruns = JACKXrunCauses(xrunTimes: xrunTimes, samples: samples, periodNanoseconds: periodNanoseconds)
        callbacks = samples.count
        self.droppedCount = droppedCount
        self.periodNanoseconds = periodNanoseconds
        self.scheduling = scheduling
        wall = JACKCallbackDistribution(samples.map(\.wallNanoseconds))
        cpu = JACKCallbackDistribution(samples.map(\.cpuNanoseconds))
        first = droppedCount == 0 ? samples.first : nil
        minorFaults = samples.reduce(0) { $0 + Int($1.minorFaults) }
        majorFaults = samples.reduce(0) { $0 + Int($1.majorFaults) }
        callbacksWithFaults = samples.count { $0.minorFaults + $0.majorFaults > 0 }
        involuntarySwitches = samples.reduce(0) { $0 + Int($1.involuntarySwitches) }
        preemptedCallbacks = samples.count { $0.involuntarySwitches > 0 }
        voluntarySwitches = samples.reduce(0) { $0 + Int($1.voluntarySwitches) }
        let late = samples.filter { $0.wallNanoseconds > periodNanoseconds }
        overPeriod = late.count
        overPeriodByWork = late.count { $0.cpuNanoseconds > periodNanoseconds }
        overPeriodBySwitch = late.count {
            $0.cpuNanoseconds <= periodNanoseconds && $0.involuntarySwitches + $0.voluntarySwitches > 0
        }
        overPeriodByFault = late.count {
            $0.cpuNanoseconds <= periodNanoseconds && $0.involuntarySwitches + $0.voluntarySwitches == 0
                && $0.minorFaults + $0.majorFaults > 0
        }
    }

    /// The report as labelled lines, for the benchmark's output.
    public var lines: [String] {
        func us(_ ns: Int64) -> String { "\((Double(ns) / 100).rounded() / 10) µs" }
        var result = [
            "callbacks \(callbacks)\(droppedCount > 0 ? " (the \(droppedCount) before them not kept)" : ""), period \(us(periodNanoseconds))",
            "wall time (our work + preemption): \(wall.microsecondsLine)",
            "thread CPU time (our work only):  \(cpu.microsecondsLine)",
        ]
        if let first {
            result.append("first callback: wall \(us(first.wallNanoseconds)), CPU \(us(first.cpuNanoseconds)), page faults \(first.minorFaults + first.majorFaults)")
        }
        result.append("page faults in callbacks: \(minorFaults) minor, \(majorFaults) major, in \(callbacksWithFaults) callbacks")
        result.append("context switches in callbacks: \(involuntarySwitches) involuntary (preempted, in \(preemptedCallbacks) callbacks), \(voluntarySwitches) voluntary (blocked)")
        result.append("callbacks over the period: \(overPeriod): \(overPeriodByWork) by CPU time (our work), "
            + "\(overPeriodBySwitch) preempted or blocked, \(overPeriodByFault) with page faults only, "
            + "\(overPeriod - overPeriodByWork - overPeriodBySwitch - overPeriodByFault) unexplained (wall > period, CPU within it, no switch counted)")
        result.append("start to next start:               \(interval.microsecondsLine)")
        result.append("cycles this client missed (frame time moved on by more than a period): \(skippedCycles)")
        result.append(xruns.line)
        result.append("callback thread scheduling: \(scheduling?.description ?? "unknown (no callback ran)")")
        return result
    }
}
