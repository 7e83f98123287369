/// Why each xrun the server reported happened, as far as this client's callbacks can tell.
///
/// A cycle is missed when some client has not finished by the next cycle's start. An xrun is put down to one
/// of our callbacks when one took longer than the period within ``matchWindowNanoseconds`` before the
/// server's notification; that callback's time splits into our own work (CPU time, page faults included) and
/// time the thread was not running (wall minus CPU time). Our work is the cause only when it alone exceeded the
/// period (the callback would have overrun had it run without a break); otherwise the time it was not running
/// made it late, however the two parts compare (on a busy 2-core VM, a callback of 0.8 ms CPU in a 1.33 ms
/// period that waited 0.7 ms for its CPU is the machine's xrun, not ours). Every other
/// xrun had no callback of ours over the period near it: the server's or our thread woke late (a timed
/// driver's thread, or ours, not scheduled in time), or another client ran long. Those are told apart from
/// outside, by steal time and the threads' switches (`scripts/soak`), not from inside the callback.
public struct JACKXrunCauses: Sendable, Hashable {
    /// The causes, from our own to the machine's.
    public enum Cause: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A callback whose CPU time alone exceeded the period.
        case ourWork
        /// Like ``ourWork`` with page faults inside the callback (memory first touched, or not locked).
        case pageFaults
        /// A callback over the period whose own CPU time fitted in it: its thread was not running for long enough
        /// to make it late (preempted or blocked, a context switch counted, or its virtual CPU taken by the host,
        /// none counted).
        case preempted
        /// No callback of ours over the period near the notification.
        case noOverrunOfOurs

        public var description: String {
            switch self {
            case .ourWork: "our work (a callback's CPU time over the period)"
            case .pageFaults: "page faults in a callback over the period"
            case .preempted: "a callback over the period while its thread was not running"
            case .noOverrunOfOurs: "no callback of ours over the period (a late wake-up or another client)"
            }
        }
    }

    /// How long before an xrun's notification its callback may have begun: JACK's notification thread is
    /// an ordinary thread, so on a loaded machine the report can trail the cycle by many milliseconds.
    public static let matchWindowNanoseconds: Int64 = 50_000_000

    /// Xruns counted per cause (every cause present, zero included).
    public var counts: [Cause: Int]
    /// Xruns judged.
    public var total: Int { counts.values.reduce(0, +) }

    public init(counts: [Cause: Int] = [:]) {
        var all = Dictionary(uniqueKeysWithValues: Cause.allCases.map { ($0, 0) })
        for (cause, n) in counts { all[cause, default: 0] += n }
        self.counts = all
    }

    /// Judges each xrun at `xrunTimes` (CLOCK_MONOTONIC ns, any order) by the callbacks in `samples` (in the
    /// order they ran). Each callback over the period explains at most one xrun.
    public init(xrunTimes: [UInt64], samples: [JACKCallbackSample], periodNanoseconds: Int64) {
        var result: [Cause: Int] = [:]
        let over = samples.compactMap { s in Self.cause(of: s, periodNanoseconds: periodNanoseconds).map { (s.startNanoseconds, $0) } }
        var used = Set<Int>()
        for t in xrunTimes.sorted() {
            let earliest = t &- UInt64(Self.matchWindowNanoseconds + 2 * periodNanoseconds)
            var match: Int?
            for index in over.indices.reversed() where !used.contains(index) {
                let start = over[index].0
                if start > t { continue }
                if start < earliest { break }
                match = index
                break
            }
            if let match {
                used.insert(match)
                result[over[match].1, default: 0] += 1
            } else {
                result[.noOverrunOfOurs, default: 0] += 1
            }
        }
        self.init(counts: result)
    }

    /// Why `sample` took longer than the period, or nil when it did not.
    public static func cause(of sample: JACKCallbackSample, periodNanoseconds period: Int64) -> Cause? {
        guard sample.wallNanoseconds > period else { return nil }
        if sample.cpuNanoseconds > period {
            return sample.minorFaults + sample.majorFaults > 0 ? .pageFaults : .ourWork
        }
        return .preempted
    }

    /// "2 our work (…), 1 no callback of ours over the period (…)": the causes present, or "none".
    public var causesLine: String {
        let parts = Cause.allCases.compactMap { c in counts[c].flatMap { $0 > 0 ? "\($0) \(c)" : nil } }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// "xruns reported: 3: 2 …, 1 …".
    public var line: String {
        "xruns reported: \(total)" + (total == 0 ? "" : ": " + causesLine)
    }
}
