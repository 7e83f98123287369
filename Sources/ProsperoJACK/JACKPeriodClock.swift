import Synchronization

/// Where the audio thread is: the frame time of the period it started last and when it started it
/// (monotonic nanoseconds), written once per period by the process callback and read by the input
/// thread (``JACKInputClock``). A sequence lock: the writer never waits, the reader retries while a
/// write is under way; nothing allocates.
package final class JACKPeriodClock: @unchecked Sendable {
    package init() {}

    private let sequence = Atomic<Int>(0)
    private let frame = Atomic<UInt32>(0)
    private let nanoseconds = Atomic<UInt64>(0)

    /// Audio thread: period starting at frame time `frame` began at `nanoseconds`.
    @inline(__always)
    package func publish(frame: UInt32, nanoseconds: UInt64) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .sequentiallyConsistent)
        self.frame.store(frame, ordering: .sequentiallyConsistent)
        self.nanoseconds.store(nanoseconds, ordering: .sequentiallyConsistent)
        sequence.store(s &+ 2, ordering: .sequentiallyConsistent)
    }

    /// The latest period's start, nil before the first period.
    package func latest() -> (frame: UInt32, nanoseconds: UInt64)? {
        while true {
            let before = sequence.load(ordering: .sequentiallyConsistent)
            if before & 1 != 0 { continue }
            let f = frame.load(ordering: .sequentiallyConsistent)
            let n = nanoseconds.load(ordering: .sequentiallyConsistent)
            if sequence.load(ordering: .sequentiallyConsistent) == before { return before == 0 ? nil : (f, n) }
        }
    }
}
