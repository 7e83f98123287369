import CJACKLoader
import Synchronization

/// Per-callback measurements of a ``JACKClient``'s process callback, for telling preemption
/// (wall time without CPU time, involuntary switches) from our own work (CPU time) and from
/// in-process causes (page faults, blocking).
///
/// Set it on the client before ``JACKClient/activate(handler:)``. Each callback then reads the
/// thread's CPU clock and resource counters at its start and end (four system calls, about a
/// microsecond, counted in the callback's own times) and stores one ``JACKCallbackSample`` into a
/// ring allocated and touched here, so the audio thread never allocates. The first callback also
/// stores the thread's scheduling policy. Read ``samples()`` or ``report(periodNanoseconds:)``
/// after the client stopped (while it runs they see a consistent prefix, not a snapshot).
public final class JACKCallbackTiming: @unchecked Sendable {
    /// Callbacks the ring holds; later ones overwrite the oldest.
    public let capacity: Int
    private let ring: UnsafeMutablePointer<JACKCallbackSample>
    private let written = Atomic<Int>(0)
    private let policy = Atomic<Int>(-1)
    private let priority = Atomic<Int>(0)
    /// When the server reported each xrun (CLOCK_MONOTONIC ns on JACK's notification thread), the last
    /// ``xrunCapacity`` of them.
    private let xrunRing: UnsafeMutablePointer<UInt64>
    private let xrunsWritten = Atomic<Int>(0)
    /// Xrun notifications kept.
    public let xrunCapacity = 4096
    /// The previous callback's frame time (audio thread only).
    private var previousFrame: UInt32 = 0
    private var hasPreviousFrame = false

    /// - Parameter capacity: callbacks kept (at least 1); size it for the whole run
    ///   (seconds × sample rate / period) to report every callback.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = .allocate(capacity: self.capacity)
        // Initialising writes every page now, so the audio thread never takes a first-touch fault here.
        ring.initialize(repeating: JACKCallbackSample(), count: self.capacity)
        xrunRing = .allocate(capacity: xrunCapacity)
        xrunRing.initialize(repeating: 0, count: xrunCapacity)
    }

    deinit {
        ring.deallocate()
        xrunRing.deallocate()
    }

    /// Callbacks recorded so far (may exceed ``capacity``).
    public var recordedCount: Int { written.load(ordering: .acquiring) }

    /// The callback thread's scheduling policy and priority, once a callback ran.
    public var scheduling: JACKThreadScheduling? {
        let p = policy.load(ordering: .acquiring)
        return p < 0 ? nil : JACKThreadScheduling(policy: p, priority: priority.load(ordering: .relaxed))
    }

    /// The recorded callbacks, oldest first (the last ``capacity`` of them).
    public func samples() -> [JACKCallbackSample] {
        let count = written.load(ordering: .acquiring)
        let kept = min(count, capacity)
        return (0..<kept).map { ring[(count - kept + $0) % capacity] }
    }

    /// When the server reported each xrun (CLOCK_MONOTONIC ns), oldest first (the last ``xrunCapacity``).
    public func xrunTimes() -> [UInt64] {
        let count = xrunsWritten.load(ordering: .acquiring)
        let kept = min(count, xrunCapacity)
        return (0..<kept).map { xrunRing[(count - kept + $0) % xrunCapacity] }
    }

    /// The distribution of the recorded callbacks against a period of `periodNanoseconds`, with the
    /// xruns the server reported meanwhile and their causes.
    public func report(periodNanoseconds: Int64) -> JACKCallbackReport {
        JACKCallbackReport(samples: samples(), periodNanoseconds: periodNanoseconds, scheduling: scheduling,
                           droppedCount: max(0, recordedCount - capacity), xrunTimes: xrunTimes())
    }

    /// Forgets the previous callback's frame time: a new activation (a reconnected client, another server)
    /// counts its cycles afresh. Call before activating, while no callback runs.
    func startActivation() { hasPreviousFrame = false }

    /// Notes an xrun the server reported (JACK's notification thread; never the audio thread).
    func xrunOccurred() {
        let index = xrunsWritten.load(ordering: .relaxed)
        xrunRing[index % xrunCapacity] = pj_monotonic_nanoseconds()
        xrunsWritten.store(index &+ 1, ordering: .releasing)
    }

    // MARK: Audio thread

    /// The thread's counters at a callback's start.
    struct Mark {
        var cpu: UInt64
        var usage: pj_thread_usage_t
        var skippedCycles: Int32
    }

    /// Reads the thread's CPU clock and counters at the start of a callback (after its wall-clock start),
    /// and how many of the server's cycles passed since the previous one.
    @inline(__always)
    func begin(client: OpaquePointer?, periodFrames: UInt32) -> Mark {
        if policy.load(ordering: .relaxed) < 0 {
            var p: Int32 = 0, prio: Int32 = 0
            if pj_thread_scheduling(&p, &prio) == 0 {
                priority.store(Int(prio), ordering: .relaxed)
                policy.store(Int(p), ordering: .releasing)
            }
        }
        var skipped: Int32 = 0
        let frame = client.map { pj_jack_last_frame_time($0) } ?? 0
        if hasPreviousFrame, periodFrames > 0 {
            // Wrapping subtraction: the frame time wraps after 2^32 frames (a day at 48 kHz).
            let elapsed = frame &- previousFrame
            if elapsed > periodFrames { skipped = Int32(clamping: elapsed / periodFrames - 1) }
        }
        previousFrame = frame
        hasPreviousFrame = client != nil
        var usage = pj_thread_usage_t()
        _ = pj_thread_usage(&usage)
        return Mark(cpu: pj_thread_cpu_nanoseconds(), usage: usage, skippedCycles: skipped)
    }

    /// Stores the callback that began at `mark` and `wallStart` (CLOCK_MONOTONIC nanoseconds).
    @inline(__always)
    func end(_ mark: Mark, wallStart: UInt64) {
        let cpu = pj_thread_cpu_nanoseconds()
        var usage = pj_thread_usage_t()
        _ = pj_thread_usage(&usage)
        let wall = pj_monotonic_nanoseconds()
        let index = written.load(ordering: .relaxed)
        ring[index % capacity] = JACKCallbackSample(
            wallNanoseconds: Int64(bitPattern: wall &- wallStart),
            cpuNanoseconds: Int64(bitPattern: cpu &- mark.cpu),
            minorFaults: Int32(clamping: usage.minor_faults &- mark.usage.minor_faults),
            majorFaults: Int32(clamping: usage.major_faults &- mark.usage.major_faults),
            involuntarySwitches: Int32(clamping: usage.involuntary_switches &- mark.usage.involuntary_switches),
            voluntarySwitches: Int32(clamping: usage.voluntary_switches &- mark.usage.voluntary_switches),
            startNanoseconds: wallStart, skippedCycles: mark.skippedCycles)
        written.store(index &+ 1, ordering: .releasing)
    }
}
