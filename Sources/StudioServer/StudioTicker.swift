import NIOCore
import Synchronization

/// A repeating tick on NIO's event loops (the studio's panels, status and expiry: ``StudioServer``), as a loop's own
/// timer: a tick wakes that loop's thread alone, where a Swift task sleeping between ticks woke a thread of Swift's
/// pool and then the loop (to write what the tick sent). Each tick says how long until the next, so the rate follows
/// what is watched (30 Hz while a page shows a panel, 4 Hz otherwise); the delay counts from the end of a tick (a slow
/// tick delays the next, none pile up, none comes early). ``stop()`` ends it: no tick runs after its future completes.
///
/// **Riding along.** While pages listen, the next tick is scheduled on the loop they live on (`home`), and that
/// loop, awake anyway for each group of browser audio, runs a due tick itself (``rideAlong(onLoop:)``) instead of
/// waking for it: the timer then waits up to a grace (``ridingGrace``) past the due time, a fallback for audio
/// that stalls.
/// So a listening studio's 4 Hz tick costs no wake-up of its own; each tick runs at most a group late (32 ms at the
/// default 6 blocks). Fast ticks (under 100 ms: a panel shown) keep their exact timer.
///
/// Ticks run one at a time, each after the one before (on one loop or, when the listeners move, on another), so what
/// a tick touches needs no lock of its own.
public final class StudioTicker: Sendable {
    /// How late a slow tick may come while pages listen, waiting for a group's wake-up to ride along (three groups
    /// of the default 32 ms).
    public static let ridingGrace = TimeAmount.milliseconds(100)
    /// Ticks this often or more stay on their exact timer.
    static let fastTick = TimeAmount.milliseconds(100)

    private let loops: [any EventLoop]
    private let home: @Sendable () -> Int?
    private let tick: @Sendable () -> TimeAmount
    private let grace: TimeAmount
    private let state = Mutex(State())

    struct State {
        var stopped = false
        /// The next tick's timer, its loop (an index into the loops) and when it is due.
        var pending: Scheduled<Void>?
        var loop = 0
        var due = NIODeadline.distantFuture
        /// Which timer is the live one: a timer cancelled too late to stop it finds a newer generation and returns.
        var generation = 0
        var running = false
        var ticks = 0
        var ridden = 0
        /// Completed once a tick that was running at the stop has ended.
        var stopWaiter: EventLoopPromise<Void>?
    }

    /// - Parameters:
    ///   - loops: where ticks may run (not empty); the first one while nobody listens.
    ///   - home: the index in `loops` of the loop the listening pages live on; nil while none listens.
    ///   - grace: how late a slow tick may come while pages listen (``ridingGrace``).
    ///   - tick: one tick, on one of `loops`; returns the delay until the next one (at least 1 ms is taken).
    public init(loops: [any EventLoop], home: @escaping @Sendable () -> Int? = { nil }, grace: TimeAmount = StudioTicker.ridingGrace,
                tick: @escaping @Sendable () -> TimeAmount) {
        precondition(!loops.isEmpty, "a ticker needs a loop")
        self.loops = loops
        self.home = home
        self.grace = grace
        self.tick = tick
    }

    /// One loop, no riding along.
    public convenience init(loop: any EventLoop, tick: @escaping @Sendable () -> TimeAmount) {
        self.init(loops: [loop], tick: tick)
    }

    /// Starts ticking, the first tick after `delay` (any thread). Once only; nothing after ``stop()``.
    public func start(after delay: TimeAmount) {
        state.withLock { s in
            guard !s.stopped, s.pending == nil, !s.running, s.ticks == 0 else { return }
            schedule(after: delay, in: &s)
        }
    }

    /// Stops ticking (any thread); the future completes once no tick runs or will run.
    public func stop() -> EventLoopFuture<Void> {
        state.withLock { s in
            s.stopped = true
            s.pending?.cancel()
            s.pending = nil
            s.generation += 1
            guard s.running else { return loops[0].makeSucceededFuture(()) }
            let waiter = s.stopWaiter ?? loops[0].makePromise(of: Void.self)
            s.stopWaiter = waiter
            return waiter.futureResult
        }
    }

    /// Ticks run so far, and how many of them rode along on another wake-up.
    public var ticks: (all: Int, ridden: Int) { state.withLock { ($0.ticks, $0.ridden) } }

    /// On loop number `index` (awake for something else, a group of browser audio): runs the next tick now if it is
    /// due and waits on this loop, so that its timer need not wake the loop again. Cheap when it is not: a lock and
    /// a comparison.
    public func rideAlong(onLoop index: Int) {
        let generation = state.withLock { s -> Int? in
            guard !s.stopped, !s.running, s.pending != nil, s.loop == index, NIODeadline.now() >= s.due else { return nil }
            s.pending?.cancel()
            s.pending = nil
            return s.generation
        }
        if let generation {
            run(generation, ridden: true)
        }
    }

    /// On the loop the tick was scheduled on: runs it if `generation` is still the live one, then schedules the next.
    private func run(_ generation: Int, ridden: Bool = false) {
        let live = state.withLock { s -> Bool in
            guard !s.stopped, !s.running, s.generation == generation else { return false }
            s.running = true
            s.pending = nil
            s.ticks += 1
            if ridden { s.ridden += 1 }
            return true
        }
        guard live else { return }
        let next = tick()
        let waiter = state.withLock { s -> EventLoopPromise<Void>? in
            s.running = false
            guard !s.stopped else {
                defer { s.stopWaiter = nil }
                return s.stopWaiter
            }
            schedule(after: next, in: &s)
            return nil
        }
        waiter?.succeed()
    }

    /// Under the lock: the next tick `delay` from now, on the listeners' loop (the first one while nobody listens).
    private func schedule(after delay: TimeAmount, in s: inout State) {
        let interval = max(delay, .milliseconds(1))
        let listeners = home()
        let index = listeners.map { $0 >= 0 && $0 < loops.count ? $0 : 0 } ?? 0
        // A slow tick while pages listen waits a little for a group's wake-up; otherwise its own timer is exact.
        let grace = listeners != nil && interval >= Self.fastTick ? self.grace : .zero
        s.generation += 1
        let generation = s.generation
        s.loop = index
        s.due = .now() + interval
        s.pending = loops[index].scheduleTask(deadline: s.due + grace) { [self] in run(generation) }
    }
}
