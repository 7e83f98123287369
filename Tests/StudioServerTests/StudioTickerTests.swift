import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import Studio
import StudioServer
import Synchronization
import ProsperoTestSupport
import Testing

/// The studio's tick on an event loop (``StudioTicker``): each tick the delay it asks for after the one before (counted
/// from its end), riding along on the listeners' wake-ups while pages listen, and nothing once its stop completed.
/// The rules run on `EmbeddedEventLoop`s whose time the test moves, so every tick's time is exact; one test on a real
/// loop checks that the ticks run there and end with the stop.
@Suite("Studio ticker", .ownThread)
struct StudioTickerTests {
    /// Embedded loops moved in step, one millisecond at a time, and the ticker's clock: the loops' time. Every delay
    /// here is whole milliseconds, so a timer runs at the step of its due time, with the clock reading that time.
    final class SimulatedLoops: @unchecked Sendable {
        let loops: [EmbeddedEventLoop]
        private(set) var time = NIODeadline.uptimeNanoseconds(0)
        /// The loop whose work runs now (an index into `loops`), for a tick to say where it ran.
        private(set) var running: Int?

        init(count: Int) { loops = (0..<count).map { _ in EmbeddedEventLoop() } }

        var now: @Sendable () -> NIODeadline { { self.time } }
        var milliseconds: Int64 { Int64(time.uptimeNanoseconds / 1_000_000) }

        /// Moves time on to `ms` milliseconds, running each loop's due tasks at every step.
        func advance(to ms: Int64) {
            while milliseconds < ms {
                time = time + .milliseconds(1)
                for (index, loop) in loops.enumerated() {
                    running = index
                    loop.advanceTime(to: time)
                }
                running = nil
            }
        }

        /// A tick whose own work takes `ms`: the clock moves on while no loop runs anything else.
        func spend(_ ms: Int64) { time = time + .milliseconds(ms) }

        /// `body` as loop `index`'s own work at the current time (a group of audio's wake-up there).
        func onLoop(_ index: Int, _ body: () -> Void) {
            running = index
            body()
            running = nil
        }
    }

    /// What the ticks saw: when each ran (ms) and on which loop; the delay the next one asks for.
    final class Record: Sendable {
        let ticks = Mutex<[(at: Int64, loop: Int?)]>([])
        let period = Atomic<Int64>(20)
        var times: [Int64] { ticks.withLock { $0.map(\.at) } }
        var loops: [Int?] { ticks.withLock { $0.map(\.loop) } }

        /// A tick on `sim`'s clock; `work` (ms) runs in it before it returns when given for that tick's number (0 first).
        func tick(_ sim: SimulatedLoops, work: @escaping @Sendable (Int) -> Int64 = { _ in 0 }) -> @Sendable () -> TimeAmount {
            { [self] in
                let number = ticks.withLock { list in
                    list.append((sim.milliseconds, sim.running))
                    return list.count - 1
                }
                let spent = work(number)
                if spent > 0 { sim.spend(spent) }
                return .milliseconds(period.load(ordering: .relaxed))
            }
        }
    }

    /// Whether `future` has completed, running `loop` for its callbacks.
    static func completed(_ future: EventLoopFuture<Void>, on loop: EmbeddedEventLoop) -> Bool {
        let done = Mutex(false)
        future.whenSuccess { done.withLock { $0 = true } }
        loop.run()
        return done.withLock { $0 }
    }

    @Test("each tick comes the delay it asked for after the one before: 50 ticks of 20 ms in a second, at 20, 40 … 1000 ms")
    func rate() {
        let sim = SimulatedLoops(count: 1)
        let record = Record()
        let ticker = StudioTicker(loop: sim.loops[0], now: sim.now, tick: record.tick(sim))
        ticker.start(after: .milliseconds(20))
        sim.advance(to: 1_000)
        #expect(record.times == Array(stride(from: 20, through: 1_000, by: 20)))
        #expect(ticker.ticks == (50, 0))
    }

    @Test("a slow tick delays the next (the delay counts from its end): none piles up, none comes early")
    func slowTick() {
        let sim = SimulatedLoops(count: 1)
        let record = Record()
        // The fourth tick (at 80 ms) takes 45 ms.
        let ticker = StudioTicker(loop: sim.loops[0], now: sim.now, tick: record.tick(sim) { $0 == 3 ? 45 : 0 })
        ticker.start(after: .milliseconds(20))
        sim.advance(to: 200)
        #expect(record.times == [20, 40, 60, 80, 145, 165, 185])
    }

    @Test("follows the rate each tick asks for: 4 Hz, then 50 Hz from the tick that sees the change, then 4 Hz again")
    func changesRate() {
        let sim = SimulatedLoops(count: 1)
        let record = Record()
        record.period.store(250, ordering: .relaxed)
        let ticker = StudioTicker(loop: sim.loops[0], now: sim.now, tick: record.tick(sim))
        ticker.start(after: .milliseconds(250))
        sim.advance(to: 1_000)
        #expect(record.times == [250, 500, 750, 1_000])
        // The tick at 1000 ms asked for 250 ms; the one at 1250 ms sees 20 ms and asks for it.
        record.period.store(20, ordering: .relaxed)
        sim.advance(to: 2_000)
        #expect(record.times.dropFirst(4) == ArraySlice(stride(from: 1_250, through: 1_990, by: 20)))
        record.period.store(250, ordering: .relaxed)
        sim.advance(to: 2_600)
        #expect(record.times.dropFirst(4 + 38) == [2_010, 2_260, 2_510])
    }

    @Test("nothing ticks once the stop completed: a stop between ticks, one from inside a tick, one before the first; no start after a stop")
    func stop() {
        let sim = SimulatedLoops(count: 1)
        let record = Record()
        record.period.store(5, ordering: .relaxed)
        let ticker = StudioTicker(loop: sim.loops[0], now: sim.now, tick: record.tick(sim))
        ticker.start(after: .milliseconds(5))
        sim.advance(to: 100)
        #expect(record.times.count == 20)
        #expect(Self.completed(ticker.stop(), on: sim.loops[0]), "no tick runs: the stop completes at once")
        sim.advance(to: 1_000)
        ticker.start(after: .milliseconds(5))
        sim.advance(to: 1_100)
        #expect(record.times.count == 20, "ticks after the stop")

        // Stopped by its own third tick: the stop's future completes once that tick has ended, and none follows.
        let inside = SimulatedLoops(count: 1)
        let stopped = Mutex<(future: EventLoopFuture<Void>?, completedInTick: Bool)>((nil, false))
        let holder = Mutex<StudioTicker?>(nil)
        let own = Record()
        own.period.store(5, ordering: .relaxed)
        let stopping = StudioTicker(loop: inside.loops[0], now: inside.now, tick: own.tick(inside) { number in
            if number == 2, let ticker = holder.withLock({ $0 }) {
                let future = ticker.stop()
                let done = Mutex(false)
                future.whenSuccess { done.withLock { $0 = true } }
                stopped.withLock { $0 = (future, done.withLock { $0 }) }
            }
            return 0
        })
        holder.withLock { $0 = stopping }
        stopping.start(after: .milliseconds(5))
        inside.advance(to: 500)
        let (future, completedInTick) = stopped.withLock { $0 }
        #expect(!completedInTick, "the stop completed while its tick still ran")
        #expect(future.map { Self.completed($0, on: inside.loops[0]) } == true)
        #expect(own.times == [5, 10, 15])

        let early = Record()
        let first = SimulatedLoops(count: 1)
        let unstarted = StudioTicker(loop: first.loops[0], now: first.now, tick: early.tick(first))
        unstarted.start(after: .milliseconds(100))
        _ = unstarted.stop()
        first.advance(to: 1_000)
        #expect(early.times.isEmpty)
    }

    @Test("the studio ticks at 4 Hz for a page that only listens, at 30 Hz while a page watches a panel")
    func studioRate() throws {
        let session = StudioSession(instruments: [StudioToneInstrument()])
        #expect(StudioServer.tickInterval(session.fanOut) == .milliseconds(250))
        let listener = session.connect(outbox: { _ in })
        session.receive(Array(#"{"type":"hello","subscribe":["status","audio"]}"#.utf8), from: listener, now: 0)
        #expect(StudioServer.tickInterval(session.fanOut) == .milliseconds(250))
        let watcher = session.connect(outbox: { _ in })
        session.receive(Array(#"{"type":"hello","subscribe":["meters"]}"#.utf8), from: watcher, now: 0)
        #expect(StudioServer.tickInterval(session.fanOut) == .milliseconds(33))
        session.disconnect(watcher, now: 1)
        #expect(StudioServer.tickInterval(session.fanOut) == .milliseconds(250))
    }

    /// Where listeners live (an index into the loops; nil: nobody listens).
    final class Home: Sendable {
        let index = Atomic<Int>(-1)
        var value: Int? { let i = index.load(ordering: .relaxed); return i >= 0 ? i : nil }
    }

    @Test("while pages listen, a due slow tick rides along on their loop's next wake-up; with none, its fallback runs it a grace late; with nobody listening, an exact timer on the first loop")
    func ridesAlong() {
        let sim = SimulatedLoops(count: 2)
        let record = Record()
        record.period.store(250, ordering: .relaxed)
        let home = Home()
        home.index.store(1, ordering: .relaxed)
        let ticker = StudioTicker(loops: sim.loops, home: { home.value }, now: sim.now, tick: record.tick(sim))
        ticker.start(after: .milliseconds(250))
        // Due at 250 ms, the first tick waits for a group on the listeners' loop (its fallback: 1 s after its due time).
        sim.advance(to: 500)
        #expect(ticker.ticks == (0, 0))
        // Groups of audio every 32 ms from 500 ms on both loops (the other loop's first: a group there is no use to a tick
        // waiting on the listeners'). Each due tick runs at the first group on its loop at or after its due time.
        for group in stride(from: Int64(500), to: 2_000, by: 32) {
            sim.advance(to: group)
            sim.onLoop(0) { ticker.rideAlong(onLoop: 0) }
            sim.onLoop(1) { ticker.rideAlong(onLoop: 1) }
        }
        #expect(record.times == [500, 756, 1_012, 1_268, 1_524, 1_780])
        #expect(record.loops == Array(repeating: 1, count: 6), "a tick ran off the listeners' loop")
        #expect(ticker.ticks == (6, 6))
        // The groups stop (audio stalls): the tick due at 2030 ms runs by the fallback a grace later, on the
        // listeners' loop, and so does the next.
        sim.advance(to: 4_500)
        #expect(record.times.dropFirst(6) == [3_030, 4_280])
        #expect(record.loops.dropFirst(6) == [1, 1])
        #expect(ticker.ticks == (8, 6))
        // Nobody listens: the tick already waiting keeps its fallback; the ones after it keep an exact timer on the first loop.
        home.index.store(-1, ordering: .relaxed)
        sim.advance(to: 7_000)
        #expect(record.times.dropFirst(8) == [5_530, 5_780, 6_030, 6_280, 6_530, 6_780])
        #expect(record.loops.dropFirst(8) == [1, 0, 0, 0, 0, 0])
        #expect(ticker.ticks == (14, 6))
    }

    @Test("a tick not yet due does not ride along; a stopped ticker never does")
    func notBeforeDue() {
        let sim = SimulatedLoops(count: 1)
        let record = Record()
        record.period.store(500, ordering: .relaxed)
        let ticker = StudioTicker(loops: sim.loops, home: { 0 }, grace: .seconds(10), now: sim.now, tick: record.tick(sim))
        ticker.start(after: .milliseconds(500))
        sim.onLoop(0) { ticker.rideAlong(onLoop: 0) }
        sim.advance(to: 499)
        sim.onLoop(0) { ticker.rideAlong(onLoop: 0) }
        #expect(ticker.ticks == (0, 0))
        sim.advance(to: 500)
        sim.onLoop(0) { ticker.rideAlong(onLoop: 0) }
        #expect(ticker.ticks == (1, 1))
        #expect(record.times == [500])
        _ = ticker.stop()
        sim.advance(to: 1_100)
        sim.onLoop(0) { ticker.rideAlong(onLoop: 0) }
        sim.advance(to: 20_000)
        #expect(ticker.ticks == (1, 1))
    }

    @Test("on a real event loop: the ticks run on it, and none once the stop's future completed")
    func realLoop() throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let ticks = Atomic<Int>(0), offLoop = Atomic<Int>(0)
        let ticker = StudioTicker(loop: loop) {
            if !loop.inEventLoop { offLoop.add(1, ordering: .relaxed) }
            ticks.add(1, ordering: .relaxed)
            return .milliseconds(5)
        }
        ticker.start(after: .milliseconds(5))
        defer { _ = try? ticker.stop().wait() }
        // A bound for a busy machine, not a rate: ten ticks of 5 ms come long before it.
        let deadline = Date().addingTimeInterval(60)
        while ticks.load(ordering: .relaxed) < 10 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try ticker.stop().wait()
        let stopped = ticks.load(ordering: .relaxed)
        #expect(stopped >= 10)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(ticks.load(ordering: .relaxed) == stopped, "ticks after the stop")
        #expect(offLoop.load(ordering: .relaxed) == 0, "a tick ran off its loop")
        #expect(ticker.ticks == (stopped, 0))
    }
}
