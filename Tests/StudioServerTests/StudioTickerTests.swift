import Foundation
import NIOCore
import NIOPosix
import Studio
import StudioServer
import Synchronization
import ProsperoTestSupport
import Testing

/// The studio's tick on an event loop (``StudioTicker``): it runs on its loop, at the rate each tick asks for, and
/// nothing runs once its stop completed. Rates are checked from above exactly (a tick never comes early: at most
/// elapsed / period + 1 ticks) and from below loosely (a busy machine delays timers, it does not add ticks).
@Suite("Studio ticker", .serialized, .ownThread)
struct StudioTickerTests {
    let loop = MultiThreadedEventLoopGroup.singleton.next()

    /// What the tick closure saw.
    final class Record: Sendable {
        let ticks = Atomic<Int>(0)
        let offLoop = Atomic<Int>(0)
        let period = Atomic<Int>(20)  // ms, what the next tick asks for
    }

    func ticker(_ record: Record) -> StudioTicker {
        let loop = self.loop
        return StudioTicker(loop: loop) {
            if !loop.inEventLoop { record.offLoop.add(1, ordering: .relaxed) }
            record.ticks.add(1, ordering: .relaxed)
            return .milliseconds(Int64(record.period.load(ordering: .relaxed)))
        }
    }

    /// Ticks counted over about `seconds` of this thread's sleep, the seconds that really passed, and how many of
    /// them the machine gave: those in which some task waited for a CPU taken off, at least a quarter counted.
    func ticks(_ record: Record, over seconds: Double) -> (count: Int, elapsed: Double, machine: Double) {
        let before = record.ticks.load(ordering: .relaxed), stopwatch = MachineStopwatch()
        Thread.sleep(forTimeInterval: seconds)
        let time = stopwatch.read()
        return (record.ticks.load(ordering: .relaxed) - before, time.elapsed, time.machine)
    }

    @Test("ticks on its loop at the rate it asks for")
    func rate() throws {
        let record = Record()
        let ticker = ticker(record)
        ticker.start(after: .milliseconds(20))
        defer { _ = try? ticker.stop().wait() }
        let (count, elapsed, machine) = ticks(record, over: 1.0)
        #expect(count <= Int(elapsed / 0.020) + 1, "\(count) ticks of 20 ms in \(elapsed) s")
        // A fifth of the rate, in the machine's time (8 in 1.02 s of wall time beside the other test processes).
        #expect(Double(count) >= 10 * machine, "\(count) ticks of 20 ms in \(elapsed) s, \(machine) s of the machine's")
        #expect(record.offLoop.load(ordering: .relaxed) == 0, "a tick ran off its loop")
        try ticker.stop().wait()
        #expect(ticker.ticks.all == record.ticks.load(ordering: .relaxed))
        #expect(ticker.ticks.ridden == 0)
    }

    @Test("follows the rate each tick asks for: 4 Hz, then 50 Hz, then 4 Hz again")
    func changesRate() throws {
        let record = Record()
        record.period.store(250, ordering: .relaxed)
        let ticker = ticker(record)
        ticker.start(after: .milliseconds(250))
        defer { _ = try? ticker.stop().wait() }
        let slow = ticks(record, over: 1.0)
        #expect(slow.count <= Int(slow.elapsed / 0.250) + 1, "\(slow.count) ticks at 4 Hz in \(slow.elapsed) s")
        #expect(slow.count >= 1)
        // The tick that sees the new rate asks for it: within one slow period, 20 ms ticks.
        record.period.store(20, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.3)
        let fast = ticks(record, over: 1.0)
        #expect(Double(fast.count) >= 10 * fast.machine, "\(fast.count) ticks at 50 Hz in \(fast.elapsed) s, \(fast.machine) s of the machine's")
        #expect(fast.count <= Int(fast.elapsed / 0.020) + 1)
        record.period.store(250, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.1)
        let again = ticks(record, over: 1.0)
        #expect(again.count <= Int(again.elapsed / 0.250) + 1, "\(again.count) ticks back at 4 Hz in \(again.elapsed) s")
    }

    @Test("nothing ticks once the stop completed, also a stop before the first tick, and no start after a stop")
    func stop() throws {
        let record = Record()
        record.period.store(5, ordering: .relaxed)
        let ticker = ticker(record)
        ticker.start(after: .milliseconds(5))
        Thread.sleep(forTimeInterval: 0.2)
        try ticker.stop().wait()
        let stopped = record.ticks.load(ordering: .relaxed)
        #expect(stopped > 0)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(record.ticks.load(ordering: .relaxed) == stopped, "ticks after the stop")
        ticker.start(after: .milliseconds(5))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(record.ticks.load(ordering: .relaxed) == stopped, "a start after the stop ticked")

        let early = Record()
        let unstarted = self.ticker(early)
        unstarted.start(after: .milliseconds(100))
        try unstarted.stop().wait()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(early.ticks.load(ordering: .relaxed) == 0)
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

    /// Two loops; `home` says where listeners live (nil: nobody listens).
    final class Home: Sendable {
        let index = Atomic<Int>(-1)
        var value: Int? { let i = index.load(ordering: .relaxed); return i >= 0 ? i : nil }
    }

    @Test("while pages listen, a due slow tick rides along on their loop's wake-up instead of its own timer")
    func ridesAlong() throws {
        let loops = StudioServer.eventLoops
        let record = Record()
        record.period.store(250, ordering: .relaxed)
        let home = Home()
        home.index.store(loops.count - 1, ordering: .relaxed)
        let listenersLoop = loops[loops.count - 1]
        let ticker = StudioTicker(loops: loops, home: { home.value }) {
            if !listenersLoop.inEventLoop { record.offLoop.add(1, ordering: .relaxed) }
            record.ticks.add(1, ordering: .relaxed)
            return .milliseconds(Int64(record.period.load(ordering: .relaxed)))
        }
        ticker.start(after: .milliseconds(250))
        defer { _ = try? ticker.stop().wait() }
        // Due at 250 ms, the first tick waits for a group on the listeners' loop (its fallback timer: 1 s later).
        Thread.sleep(forTimeInterval: 0.5)
        #expect(ticker.ticks == (0, 0), "\(ticker.ticks)")
        // Groups of audio every 32 ms on the listeners' loop: each due tick runs there, none by its timer, and
        // none early (at most elapsed / 250 ms + 1 of them).
        let start = Date()
        while Date().timeIntervalSince(start) < 1.5 {
            try listenersLoop.submit { ticker.rideAlong(onLoop: loops.count - 1) }.wait()
            // A group on another loop is no use to a tick waiting on this one.
            if loops.count > 1 { try loops[0].submit { ticker.rideAlong(onLoop: 0) }.wait() }
            Thread.sleep(forTimeInterval: 0.032)
        }
        let (all, ridden) = ticker.ticks
        let elapsed = Date().timeIntervalSince(start)
        #expect(ridden >= 3, "\(ridden) of \(all) ticks rode along")
        #expect(all == ridden, "\(all - ridden) ticks came by their timer while groups came every 32 ms")
        #expect(all <= Int(elapsed / 0.25) + 1, "\(all) ticks of 250 ms in \(elapsed) s")
        #expect(record.offLoop.load(ordering: .relaxed) == 0, "a tick ran off the listeners' loop")
        // No group comes: the fallback runs the waiting tick within its grace, and the next ones too.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(ticker.ticks.all - all >= 1, "no tick for 2.5 s without groups")
        // Nobody listens: the ticks keep their own exact timer on the first loop (4 Hz, not less).
        home.index.store(-1, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 1.3)
        let before = ticker.ticks.all
        Thread.sleep(forTimeInterval: 1.0)
        #expect(ticker.ticks.all - before >= 3, "\(ticker.ticks.all - before) ticks in 1 s with nobody listening")
    }

    @Test("a tick not yet due does not ride along; a stopped ticker never does")
    func notBeforeDue() throws {
        let loop = StudioServer.eventLoops[0]
        // A long grace: on a busy machine the timer must not come first.
        let ticker = StudioTicker(loops: [loop], home: { 0 }, grace: .seconds(10)) { .milliseconds(500) }
        ticker.start(after: .milliseconds(500))
        try loop.submit { ticker.rideAlong(onLoop: 0) }.wait()
        #expect(ticker.ticks == (0, 0))
        Thread.sleep(forTimeInterval: 0.55)
        try loop.submit { ticker.rideAlong(onLoop: 0) }.wait()
        #expect(ticker.ticks == (1, 1))
        try ticker.stop().wait()
        Thread.sleep(forTimeInterval: 0.55)
        try loop.submit { ticker.rideAlong(onLoop: 0) }.wait()
        #expect(ticker.ticks == (1, 1))
    }
}
