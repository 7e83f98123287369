#if canImport(Glibc)
import Glibc
#endif

/// Wakes a waiting control thread from the audio thread without a lock: `ring` posts a POSIX semaphore
/// (a futex wake when someone waits, nothing to allocate), `wait` sleeps until rung. Rings coalesce
/// as counts; the waiter drains whatever arrived each time it wakes.
final class StudioDoorbell: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Audio thread (or any): wakes the waiter.
    @inline(__always)
    func ring() { sem_post(semaphore) }

    /// Control thread: sleeps until the next ring (an interrupted wait returns early; callers re-check).
    func wait() { _ = sem_wait(semaphore) }
}
