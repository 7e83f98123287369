import NIOCore
import Synchronization

/// A repeating tick on NIO's event loops (the studio's panels, status and expiry: ``StudioServer``), as a loop's own
/// timer: a tick wakes that loop's thread alone, where a Swift task sleeping between ticks woke a thread of Swift's
/// pool and then the loop (to write what the tick sent). Each tick says how long until the next, so the rate follows
/// what is watched (30 Hz while a page shows a panel, 4 Hz otherwise); the delay counts from the end of a tick (a slow
/// tick delays the next, none pile up, none comes early). ``stop()`` ends it: no tick runs after its future completes.
///
/// **Riding along.** While pages listen, a slow tick (4 Hz) waits on the loop they live on (`home`) for that loop's
/// next wake-up for a group of browser audio, which runs it (``rideAlong(onLoop:)``): a listening studio's tick costs
/// no wake-up of its own, and each tick comes at most a group late (32 ms at the default 6 blocks). A fallback timer
/// runs a tick that no group came for within a grace (``ridingGrace``: audio that stalls). That timer is kept across
/// ticks, moved only when it fires, because NIO leaves a loop's timer armed for a task that was cancelled: a timer
/// cancelled at every tick would still wake the loop at every tick. Fast ticks (under 100 ms: a panel shown) keep an
/// exact timer each.
///
/// Ticks run one at a time, each after the one before (on one loop or, when the listeners move, on another), so what
/// a tick touches needs no lock of its own.
public final class StudioTicker: Sendable {
    /// How late a slow tick may come while pages listen and no group of audio comes to run it.
    public static let ridingGrace = TimeAmount.seconds(1)
    /// Ticks this often or more keep an exact timer.
    static let fastTick = TimeAmount.milliseconds(100)

    private let loops: [any EventLoop]
    private let home: @Sendable () -> Int?
    private let tick: @Sendable () -> TimeAmount
    private let grace: TimeAmount
    private let now: @Sendable () -> NIODeadline
    private let state = Mutex(State())

    struct State {
        var stopped = false
        /// A tick is waiting to run: on loop `loop` (an index into the loops), due at `due`.
        var waiting = false
        var loop = 0
        var due = NIODeadline.distantFuture
        /// The waiting tick rides along on groups of audio (else its exact timer, `timer`, runs it).
        var riding = false
        var timer: Scheduled<Void>?
        /// The riding ticks' fallback, on loop `fallbackLoop`.
        var fallback: Scheduled<Void>?
        var fallbackLoop = 0
        /// Which exact timer is the live one: a timer cancelled too late to stop it finds a newer one and returns.
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
    ///   - grace: how late a riding tick may come when no group runs it (``ridingGrace``).
    ///   - now: the time due times are counted on, the clock `loops` schedule by (NIO's uptime; a test's
    ///     `EmbeddedEventLoop` passes its own, so that ticks follow time the test moves).
    ///   - tick: one tick, on one of `loops`; returns the delay until the next one (at least 1 ms is taken).
    public init(loops: [any EventLoop], home: @escaping @Sendable () -> Int? = { nil }, grace: TimeAmount = StudioTicker.ridingGrace,
                now: @escaping @Sendable () -> NIODeadline = { .now() }, tick: @escaping @Sendable () -> TimeAmount) {
        precondition(!loops.isEmpty, "a ticker needs a loop")
        self.loops = loops
        self.home = home
        self.grace = grace
        self.now = now
        self.tick = tick
    }

    /// One loop, no riding along.
    public convenience init(loop: any EventLoop, now: @escaping @Sendable () -> NIODeadline = { .now() }, tick: @escaping @Sendable () -> TimeAmount) {
        self.init(loops: [loop], now: now, tick: tick)
    }

    /// Starts ticking, the first tick after `delay` (any thread). Once only; nothing after ``stop()``.
    public func start(after delay: TimeAmount) {
        state.withLock { s in
            guard !s.stopped, !s.waiting, !s.running, s.ticks == 0 else { return }
            schedule(after: delay, in: &s)
        }
    }

    /// Stops ticking (any thread); the future completes once no tick runs or will run.
    public func stop() -> EventLoopFuture<Void> {
        state.withLock { s in
            s.stopped = true
            s.waiting = false
            s.timer?.cancel()
            s.timer = nil
            s.fallback?.cancel()
            s.fallback = nil
            s.generation += 1
            guard s.running else { return loops[0].makeSucceededFuture(()) }
            let waiter = s.stopWaiter ?? loops[0].makePromise(of: Void.self)
            s.stopWaiter = waiter
            return waiter.futureResult
        }
    }

    /// Ticks run so far, and how many of them rode along on another wake-up.
    public var ticks: (all: Int, ridden: Int) { state.withLock { ($0.ticks, $0.ridden) } }

    /// On loop number `index` (awake for something else: a group of browser audio): runs the waiting tick now if it
    /// rides along, waits on this loop and is due. Cheap when it is not: a lock and a comparison.
    public func rideAlong(onLoop index: Int) {
        let ride = state.withLock { s -> Bool in
            guard !s.stopped, !s.running, s.waiting, s.riding, s.loop == index, now() >= s.due else { return false }
            s.waiting = false
            s.running = true
            return true
        }
        if ride { run(ridden: true) }
    }

    /// The exact timer of tick `generation` fired.
    private func timerFired(_ generation: Int) {
        let run = state.withLock { s -> Bool in
            guard !s.stopped, !s.running, s.waiting, !s.riding, s.generation == generation else { return false }
            s.waiting = false
            s.timer = nil
            s.running = true
            return true
        }
        if run { self.run(ridden: false) }
    }

    /// The riding ticks' fallback fired: runs the waiting tick if no group ran it by its due time and grace,
    /// else comes back for the next one.
    private func fallbackFired() {
        let run = state.withLock { s -> Bool in
            s.fallback = nil
            guard !s.stopped, !s.running, s.waiting, s.riding else { return false }
            if now() >= s.due + grace {
                s.waiting = false
                s.running = true
                return true
            }
            armFallback(in: &s)
            return false
        }
        if run { self.run(ridden: false) }
    }

    /// A tick claimed by one of the above: runs it, then schedules the next.
    private func run(ridden: Bool) {
        let next = tick()
        let waiter = state.withLock { s -> EventLoopPromise<Void>? in
            s.running = false
            s.ticks += 1
            if ridden { s.ridden += 1 }
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
        s.loop = listeners.map { $0 >= 0 && $0 < loops.count ? $0 : 0 } ?? 0
        s.due = now() + interval
        s.waiting = true
        s.riding = listeners != nil && interval >= Self.fastTick
        s.generation += 1
        if s.riding {
            // The fallback that is armed stays (moving it would leave NIO's timer armed for the old one).
            if s.fallback == nil || s.fallbackLoop != s.loop { armFallback(in: &s) }
        } else {
            let generation = s.generation
            s.timer = loops[s.loop].scheduleTask(deadline: s.due) { [self] in timerFired(generation) }
        }
    }

    /// Under the lock: the fallback for the waiting riding tick, on its loop, at its due time plus the grace.
    private func armFallback(in s: inout State) {
        s.fallback?.cancel()
        s.fallbackLoop = s.loop
        s.fallback = loops[s.loop].scheduleTask(deadline: s.due + grace) { [self] in fallbackFired() }
    }
}
