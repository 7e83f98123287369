import NIOCore

/// A repeating tick on one NIO event loop (the studio's panels, status and expiry: ``StudioServer``), as one of the
/// loop's own timers: a tick wakes that loop's thread alone, where a Swift task sleeping between ticks woke a
/// thread of Swift's pool and the loop (to write what the tick sent) both. Each tick says how long until the next,
/// so the rate follows what is watched (30 Hz while a page shows a panel, 4 Hz otherwise); the delay counts from the
/// end of a tick (a slow tick delays the next, none pile up). ``stop()`` ends it: no tick starts after the stop's
/// future completes.
///
/// Its state lives on the loop: every method hops there (which is why it is `@unchecked Sendable`).
public final class StudioTicker: @unchecked Sendable {
    public let loop: any EventLoop
    private let tick: @Sendable () -> TimeAmount
    // The loop's alone.
    private var task: RepeatedTask?
    private var interval = TimeAmount.zero
    private var stopped = false
    private var ticks = 0

    /// - Parameter tick: runs on `loop` at each tick; returns the delay until the next one (clamped to ≥ 1 ms).
    public init(loop: any EventLoop, tick: @escaping @Sendable () -> TimeAmount) {
        self.loop = loop
        self.tick = tick
    }

    /// Starts ticking, the first tick after `delay` (any thread). Once only; nothing after ``stop()``.
    public func start(after delay: TimeAmount) {
        loop.execute { [self] in
            guard !stopped, task == nil else { return }
            schedule(every: delay)
        }
    }

    /// Stops ticking (any thread); the future completes once no tick runs or will run.
    public func stop() -> EventLoopFuture<Void> {
        loop.flatSubmit { [self] in
            stopped = true
            let done = loop.makePromise(of: Void.self)
            if let task { task.cancel(promise: done) } else { done.succeed() }
            task = nil
            return done.futureResult
        }
    }

    /// Ticks run so far.
    public func count() -> EventLoopFuture<Int> { loop.submit { [self] in ticks } }

    /// On the loop: a repeated task every `delay`, replaced by one at the new rate when a tick asks for another.
    private func schedule(every delay: TimeAmount) {
        interval = max(delay, .milliseconds(1))
        task = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] repeated in
            guard !stopped else { return }
            ticks += 1
            let next = max(tick(), .milliseconds(1))
            // A stop inside the tick (or before it ran) cancelled the task already: nothing to replace.
            guard next != interval, !stopped else { return }
            repeated.cancel()
            schedule(every: next)
        }
    }
}
