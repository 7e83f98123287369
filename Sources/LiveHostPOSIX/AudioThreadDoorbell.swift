#if canImport(Glibc)
import Glibc
#endif

/// Wakes a control thread from the audio thread (MIDI that arrived on `midi_in`, a group of browser-audio
/// blocks) without a lock: ``ring()`` posts a POSIX semaphore (a futex wake when someone waits, nothing to
/// allocate), ``wait()`` sleeps until rung, ``wait(timeout:)`` at most that long. Rings coalesce as counts;
/// the waiter takes whatever arrived each time it wakes.
public final class AudioThreadDoorbell: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Audio thread (or any): wakes the waiter.
    @inline(__always)
    public func ring() { sem_post(semaphore) }

    /// Control thread: sleeps until the next ring (an interrupted wait returns early: callers re-check their state).
    public func wait() { _ = sem_wait(semaphore) }

    /// Control thread: sleeps until the next ring or for at most `timeout` seconds; true when rung (an
    /// interrupted wait returns early: callers re-check their state).
    @discardableResult
    public func wait(timeout: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let whole = max(0, timeout.rounded(.down))
        var deadline = timespec(tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + Int((max(0, timeout) - whole) * 1e9))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return sem_timedwait(semaphore, &deadline) == 0
    }
}
