/// One process callback as ``JACKCallbackTiming`` records it on the audio thread.
public struct JACKCallbackSample: Sendable, Hashable {
    /// Wall-clock (CLOCK_MONOTONIC) duration of the callback in nanoseconds: our work plus any
    /// time the thread was preempted or waited inside it.
    public var wallNanoseconds: Int64
    /// CPU time the callback thread used during it (CLOCK_THREAD_CPUTIME_ID), in nanoseconds:
    /// our own work (user and kernel, page faults included), without time spent preempted.
    public var cpuNanoseconds: Int64
    /// Page faults the thread took inside the callback, served without I/O (first touch of a page).
    public var minorFaults: Int32
    /// Page faults the thread took inside the callback that needed I/O.
    public var majorFaults: Int32
    /// Times the thread was preempted inside the callback (involuntary context switches).
    public var involuntarySwitches: Int32
    /// Times the thread blocked inside the callback (voluntary context switches: a lock, a system call that sleeps).
    public var voluntarySwitches: Int32
    /// When the callback began (CLOCK_MONOTONIC, nanoseconds): to place it beside an xrun's notification,
    /// and the interval from the previous callback's start (a late wake-up shows there).
    public var startNanoseconds: UInt64
    /// Whole cycles between the previous callback's and this one's by the server's frame time (0 normally):
    /// cycles in which this client did not run.
    public var skippedCycles: Int32

    public init(wallNanoseconds: Int64 = 0, cpuNanoseconds: Int64 = 0, minorFaults: Int32 = 0, majorFaults: Int32 = 0,
                involuntarySwitches: Int32 = 0, voluntarySwitches: Int32 = 0, startNanoseconds: UInt64 = 0,
                skippedCycles: Int32 = 0) {
        self.wallNanoseconds = wallNanoseconds
        self.cpuNanoseconds = cpuNanoseconds
        self.minorFaults = minorFaults
        self.majorFaults = majorFaults
        self.involuntarySwitches = involuntarySwitches
        self.voluntarySwitches = voluntarySwitches
        self.startNanoseconds = startNanoseconds
        self.skippedCycles = skippedCycles
    }
}
