import Dispatch

/// A task executor on its own serial dispatch queue, outside Swift's cooperative pool.
///
/// The test runner fills that pool's threads (two on a two-core machine) with tests that block on
/// sockets and processes; an in-process studio server given this executor keeps answering them, and a test
/// run on one (``OwnThreadTrait``) blocks only its own queue's thread.
public final class DispatchTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    public init(label: String) { queue = DispatchQueue(label: label) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
