/// What the machine did around one measured event, to tell the code's time from the machine's: a figure is judged
/// only for events the machine let the code under test run through. An event is disturbed when an xrun came
/// (server-wide, reported to every client) between its send and its judgement, when the threads of the measured
/// processes waited more than `waitAllowance` for a CPU (schedstat), when the server's periods came off their
/// cadence by more than a period, or when its send was held up after its stamp by more than a millisecond.
/// Disturbed events are counted and reported with their cause, never mixed into the figures.
struct EventWatch {
    let probe: LatencyProbe
    /// The processes whose threads' CPU wait counts: the command measured, jackd, the bench.
    let pids: [Int32]
    /// Nanoseconds of run-queue wait an undisturbed event may meet.
    let waitAllowance: Int

    /// The state at an event's start.
    struct Mark {
        var xruns: Int
        var wait: RunQueueWait.Snapshot?
    }

    /// What was seen around one event.
    struct Verdict {
        var xrunsBefore: Int
        /// Run-queue wait of the measured threads (ns; 0 where schedstat is missing) and the cadence spread (µs).
        var waited: Int
        var cadence: Int
        /// Frames between the send's stamp and the send's return.
        var stampToSend: Int
        /// Why it was disturbed when only its own window is looked at, nil when it was not.
        var cause: Cause?
    }

    enum Cause: String, CaseIterable, CustomStringConvertible {
        case xrun, cpuWait = "CPU wait", cadence = "late periods", heldSend = "held send", lost = "sound lost"
        var description: String { rawValue }
    }

    /// Marks an event's start (the cadence window restarts here).
    func begin() -> Mark {
        _ = probe.takeCadenceSpread()
        return Mark(xruns: probe.xruns.load(ordering: .relaxed), wait: RunQueueWait.snapshot(pids))
    }

    /// The measured threads' run-queue wait since `mark` (ns; 0 where schedstat is missing).
    func waited(since mark: Mark) -> Int {
        guard let before = mark.wait, let since = RunQueueWait.waited(pids, since: before) else { return 0 }
        return since
    }

    /// Ends an event's window; `waited` when the CPU wait was read earlier than the cadence (as soon as the event
    /// reached the audio thread, while the cadence needs the periods around its due frame).
    func end(_ mark: Mark, stampToSend: Int = 0, waited: Int? = nil) -> Verdict {
        let waited = waited ?? self.waited(since: mark)
        let cadence = probe.takeCadenceSpread()
        let cause: Cause? = waited > waitAllowance ? .cpuWait
            : cadence > probe.periodMicroseconds ? .cadence
            : stampToSend > Bench.sampleRate / 1000 ? .heldSend : nil
        return Verdict(xrunsBefore: mark.xruns, waited: waited, cadence: cadence, stampToSend: stampToSend, cause: cause)
    }

    /// The verdict's cause now, an xrun since its start included: judged once later notifications had time to come.
    func judge(_ verdict: Verdict) -> Cause? {
        probe.xruns.load(ordering: .relaxed) != verdict.xrunsBefore ? .xrun : verdict.cause
    }
}
