import Enobarbus
import Foundation
import LiveHost
import LiveHostPOSIX
import NIOCore
import Studio
import Synchronization
import Touchstone

#if canImport(Glibc)
import Glibc
#endif

/// The studio's sound in the browser (`--audio browser`): a render clock on a dedicated thread renders
/// the active instrument's engine in fixed blocks, paced in real time by ``StudioRenderClock`` and
/// steered by the listening page's buffer fill (``StudioRateSteering``, ±0.05 %), with flush-to-zero on.
/// Each block goes to the meter tap (the panels) and, encoded once as a `0x10` frame
/// (``StudioPCMBlockRenderer``), through a lock-free ring of whole frames (``StudioFrameRing``) to a sender
/// thread that hands it to every client subscribed to `audio`. The engine renders once however many pages listen.
///
/// Listening costs wake-ups more than work (a thread woken costs this VM 50–150 µs), so the blocks travel
/// ``blocksPerWake`` at a time: the render thread wakes once per group, renders the block due now and the rest
/// of the group ahead, and rings once. In `prospero studio` it rings, itself, the server's event loop its listening
/// sockets live on (``handOn(from:)``, ``StudioFanOut/listenersHome``), which drains the ring and writes those sockets
/// in the same wake-up, the group as one write per socket: the render thread and one loop woken per group, where there
/// were about five threads per block. (Without loops, a sender thread of its own hands the group to the sockets, each
/// of which writes it in one task on its loop: ``StudioBinaryWriter``.) Every block is
/// still its own `0x10` message, in order. What the page hears: blocks arrive in groups (32 ms at the default 6)
/// instead of one every 5.3 ms, so its jitter buffer's fill swings by a group around the same 40 ms mean (the
/// rate steering holds the mean; its low point is about 24 ms instead of 37 ms). Sound after an input comes as
/// late on average (the mean fill is the latency), but less evenly: 24–56 ms after it instead of 37–43 ms, as
/// the input falls just before or just after a group's render (`prospero studio --browser-group` trades this
/// against the CPU: 1 is the old block-by-block timing).
///
/// The render thread allocates nothing and takes no lock: the ring, the tap, the doorbells and the atomics
/// are its only contact with the rest (the loop or the sender thread does the allocating and hands each frame to
/// the session's ``StudioFanOut``, which never takes the session's lock).
///
/// Nobody there, nothing rendered: while no page is subscribed to anything and no input has arrived for
/// ``restAfter`` seconds, the render rests (a wake-up every ``restingPoll`` s) and the sender sleeps until it
/// is rung; the engine keeps its state, and the next page or input starts the clock again from that moment
/// (an idle studio costs nothing).
public final class StudioBrowserDriver: StudioAudioOutput, @unchecked Sendable {
    /// 256 frames at 48 kHz: 5.33 ms per block.
    public static let defaultBlockFrames = 256
    public static let defaultSampleRate = 48_000.0
    /// A page's report older than this (s) no longer steers; the next listener takes over.
    public static let reportTimeout = 2.0
    /// Seconds without a subscribed page or any input before the render rests.
    public static let restAfter = 2.0
    /// How often a resting render looks again (s): a page that opens waits at most this for sound.
    public static let restingPoll = 0.05
    /// Blocks rendered per wake-up of the render thread and handed on together (6: 32 ms at 256 frames).
    public static let defaultBlocksPerWake = 6

    public let engines: [any StudioAudioEngine]
    public let tap: StudioMeterTap
    /// The listeners: who gets each PCM frame.
    public let fanOut: StudioFanOut
    public let sampleRate: Double
    public let blockFrames: Int
    /// Blocks per wake-up (1…16): see the type's notes.
    public let blocksPerWake: Int
    private let renderer: StudioPCMBlockRenderer
    private let frameBytes: Int
    private let ring: StudioFrameRing
    /// The render thread rings it once per group; the sender sleeps on it.
    private let doorbell = AudioThreadDoorbell()
    /// Set when the groups are handed on from event loops (``handOn(from:)``) instead of the sender thread: one
    /// doorbell per loop, in the order of the loops given (a connection's home, ``StudioFanOut/listenersHome``).
    private var loopDoorbells: [StudioLoopDoorbell] = []
    /// Their pipes' write ends, what the render thread rings without touching the objects (empty: the sender
    /// thread). Set before the render thread starts and never changed after, so reading it there takes no lock.
    private var loopDoorbellEnds: [CInt] = []
    /// Held by the loop that drains the ring (loops only, never the render thread): the ring has one reader at a
    /// time when the listeners' home moves from one loop to another, and the groups reach each socket in order.
    private let handingOn = Mutex(())
    /// Called on loop number `index` (of those given to ``handOn(from:)``) after each group it handed on: the loop is
    /// awake, so work due about now can run there without a wake-up of its own (the studio's tick:
    /// ``StudioServer/rideAlong(onLoop:)``). Set before ``start(stop:)``.
    public var afterGroup: (@Sendable (_ index: Int) -> Void)?
    private let active = Atomic<Int>(-1)
    private let ratioBits = Atomic<UInt64>(1.0.bitPattern)
    private let stopping = Atomic<Bool>(false)
    private let blocks = Atomic<Int>(0)
    private let lateRestarts = Atomic<Int>(0)
    private let ringDrops = Atomic<Int>(0)
    private let busyNanoseconds = Atomic<Int>(0)
    /// The last input's time (monotonic seconds, as bits).
    private let lastInputBits = Atomic<UInt64>(0.0.bitPattern)
    private let resting = Atomic<Bool>(false)
    private let control = Mutex(Control())
    private var threads: [Thread] = []
    private let finished = DispatchGroup()

    struct Control {
        var steering = StudioRateSteering()
        /// The page whose clock the render follows, and when it last reported.
        var master: String?
        var masterReport: StudioAudioReport?
        var lastMasterReport = -Double.infinity
        /// Every listener's last report (for Home's latency and dropouts), by client id.
        var reports: [String: (report: StudioAudioReport, at: Double)] = [:]
        var loadWindow: (busy: Int, time: Double) = (0, 0)
        var cpuLoad = 0.0
    }

    /// - Parameter fanOut: the session's (give the session this driver as its ``StudioAudioOutput``).
    public init(engines: [any StudioAudioEngine], active: Int?, tap: StudioMeterTap, fanOut: StudioFanOut,
                sampleRate: Double = StudioBrowserDriver.defaultSampleRate, blockFrames: Int = StudioBrowserDriver.defaultBlockFrames,
                blocksPerWake: Int = StudioBrowserDriver.defaultBlocksPerWake) {
        self.engines = engines
        self.tap = tap
        self.fanOut = fanOut
        self.sampleRate = sampleRate
        renderer = StudioPCMBlockRenderer(sampleRate: sampleRate, blockFrames: blockFrames)
        self.blockFrames = renderer.blockFrames
        frameBytes = StudioPCMFrame.byteCount(frames: renderer.blockFrames)
        self.blocksPerWake = min(16, max(1, blocksPerWake))
        // 64 blocks (341 ms at 256 frames) between the render and the sender threads.
        ring = StudioFrameRing(frameBytes: frameBytes, slots: 64)
        self.active.store(active ?? -1, ordering: .relaxed)
    }

    /// Which engine renders (nil: silence). Any thread.
    public func select(_ index: Int?) { active.store(index ?? -1, ordering: .relaxed) }

    /// The render rate / nominal the steering asks for now (1 ± 0.0005).
    public var ratio: Double { Double(bitPattern: ratioBits.load(ordering: .relaxed)) }
    /// Blocks rendered so far.
    public var renderedBlocks: Int { blocks.load(ordering: .relaxed) }
    public func inputArrived(at time: Double) { lastInputBits.store(time.bitPattern, ordering: .relaxed) }

    /// Whether a block is wanted at `now`: a page sees or hears it, or input came lately.
    private func wanted(at now: Double) -> Bool {
        fanOut.hasSubscribers || now - Double(bitPattern: lastInputBits.load(ordering: .relaxed)) < Self.restAfter
    }

    /// Prepares the engines and starts the render and sender threads; they end when `stop` is requested.
    public func start(stop: LiveStop) {
        for engine in engines { engine.prepare(sampleRate: sampleRate, maximumFrames: blockFrames) }
        tap.noteSampleRate(sampleRate)
        stop.onRequest { [self] in
            stopping.store(true, ordering: .relaxed)
            doorbell.ring()
        }
        let render = Thread { [self] in renderLoop() }
        render.name = "studio browser render"
        render.qualityOfService = .userInteractive
        threads = [render]
        if loopDoorbells.isEmpty {
            let send = Thread { [self] in sendLoop() }
            send.name = "studio browser send"
            threads.append(send)
        }
        for t in threads {
            finished.enter()
            t.start()
        }
    }

    /// Hands each group of blocks on from the event loops that write the studio's sockets instead of a sender
    /// thread: one doorbell (a pipe) per loop of `loops`, and the render thread rings only the loop the listening
    /// sockets live on (``StudioFanOut/listenersHome``, the index of their loop in `loops`; the first loop while
    /// nobody listens there). That loop drains the ring and writes its sockets in the same wake-up: one thread
    /// woken per group, and no task handed to another loop for a page that listens alone. (With pages on several
    /// loops, those on the others still cost their loop a wake-up per group.) Call before ``start(stop:)``; when
    /// it throws (no pipe), the sender thread does the work as without it.
    public func handOn(from loops: [any EventLoop]) throws {
        var bells: [StudioLoopDoorbell] = []
        do {
            for (index, loop) in loops.enumerated() {
                bells.append(try StudioLoopDoorbell(loop: loop) { [weak self] in self?.handOn(onLoop: index) })
            }
        } catch {
            for bell in bells { bell.close() }
            throw error
        }
        loopDoorbells = bells
        loopDoorbellEnds = bells.map(\.writeEnd)
    }

    /// Every waiting frame, oldest first, to the clients subscribed to `audio` (the sender thread, or loop number
    /// `index`, which then runs ``afterGroup``).
    private func handOn(onLoop index: Int? = nil) {
        handingOn.withLock { _ in
            var frames: [[UInt8]] = []
            frames.reserveCapacity(ring.count)
            ring.drain { frames.append(Array($0)) }
            fanOut.send(frames: frames, to: .audio)
        }
        if let index, let afterGroup { afterGroup(index) }
    }

    /// Render thread: rings, of the doorbells' write ends `ends` (not empty), the one of the loop the listeners live
    /// on (the first loop when they live on none of them). One non-blocking `write`; no allocation, no lock.
    @inline(__always)
    private func ringLoop(_ ends: UnsafeBufferPointer<CInt>) {
        let home = fanOut.listenersHome ?? 0
        StudioLoopDoorbell.ring(ends[home >= 0 && home < ends.count ? home : 0])
    }

    /// Waits (up to `timeout`) for the threads to end after the stop.
    @discardableResult
    public func waitUntilStopped(timeout: Double = 2) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }

    // MARK: Render thread

    private func renderLoop() {
        defer { finished.leave() }
        Self.nameThread("studio render")
        defer { for bell in loopDoorbells { bell.close() } }
        // The doorbells' ends in memory of this thread's own, read per group without touching the driver's array.
        let ends = UnsafeMutableBufferPointer<CInt>.allocate(capacity: loopDoorbellEnds.count)
        _ = ends.initialize(from: loopDoorbellEnds)
        defer { ends.deallocate() }
        let saved = FlushToZero.enable()
        defer { FlushToZero.restore(saved) }
        var clock = StudioRenderClock(sampleRate: sampleRate, blockFrames: blockFrames, start: MonotonicClock.now())
        // Rendering starts wanted: the instrument chosen at start sounds from the first page on.
        inputArrived(at: MonotonicClock.now())
        while !stopping.load(ordering: .relaxed) {
            let now = MonotonicClock.now()
            if !wanted(at: now) {
                resting.store(true, ordering: .relaxed)
                Self.sleep(Self.restingPoll)
                continue
            }
            if resting.load(ordering: .relaxed) {
                // Time starts again now: no burst of blocks to catch up the rest.
                clock = StudioRenderClock(sampleRate: sampleRate, blockFrames: blockFrames, start: now)
                resting.store(false, ordering: .relaxed)
            }
            switch clock.poll(now: now) {
            case .wait(let seconds):
                Self.sleep(seconds)
            case .render:
                // The block due now and the rest of its group ahead of time; the clock then waits out the group.
                let cpuBefore = Self.threadCPUNanoseconds()
                let index = active.load(ordering: .relaxed)
                let engine: (any StudioAudioEngine)? = index >= 0 && index < engines.count ? engines[index] : nil
                for _ in 0..<blocksPerWake {
                    let frame = renderer.render(engine)
                    tap.push(left: renderer.leftSamples, right: renderer.rightSamples, frameCount: blockFrames)
                    if !ring.push(frame) { ringDrops.wrappingAdd(1, ordering: .relaxed) }
                    let restartsBefore = clock.lateRestarts
                    clock.ratio = Double(bitPattern: ratioBits.load(ordering: .relaxed))
                    clock.rendered(at: now)
                    if clock.lateRestarts != restartsBefore { lateRestarts.wrappingAdd(1, ordering: .relaxed) }
                    blocks.wrappingAdd(1, ordering: .relaxed)
                }
                // The engine's cost as CPU time, not wall time: a busy machine that preempts the render mid-group
                // does not make the engine look dearer.
                busyNanoseconds.wrappingAdd(Self.threadCPUNanoseconds() - cpuBefore, ordering: .relaxed)
                if ends.isEmpty { doorbell.ring() } else { ringLoop(UnsafeBufferPointer(ends)) }
            }
        }
    }

    /// The calling thread's CPU time (ns): a system call, no allocation, no lock.
    static func threadCPUNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }

    /// Names the calling thread (as `top -H`, `/proc/PID/task/*/comm` and `scripts/bench/studio-idle` show it).
    /// (Linux: through `/proc/thread-self/comm`; Glibc's module does not export `pthread_setname_np`.)
    static func nameThread(_ name: String) {
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        _ = fputs(String(name.prefix(15)), file)
        fclose(file)
    }

    /// Sleeps `seconds` (capped at 50 ms so that a stop is seen soon) without allocating.
    static func sleep(_ seconds: Double) {
        let s = min(max(seconds, 0), 0.050)
        var request = timespec(tv_sec: 0, tv_nsec: Int(s * 1e9))
        var remaining = timespec()
        _ = nanosleep(&request, &remaining)
    }

    // MARK: Sender thread

    /// Sleeps until the render rings (once per group, or the stop), then hands every waiting frame on, oldest first.
    private func sendLoop() {
        defer { finished.leave() }
        Self.nameThread("studio send")
        while !stopping.load(ordering: .relaxed) {
            doorbell.wait()
            handOn()
        }
    }

    // MARK: Control (the session's thread)

    /// A page's report: the steering follows one page (the master: the first listener that reports, until
    /// it goes quiet for ``reportTimeout``); every page's latency and dropouts show on Home.
    public func report(_ report: StudioAudioReport, client: String, at time: Double) {
        control.withLock { c in
            c.reports[client] = (report, time)
            if c.master == nil || time - c.lastMasterReport > Self.reportTimeout { c.master = client }
            guard c.master == client else { return }
            c.lastMasterReport = time
            c.masterReport = report
            let r = c.steering.update(fill: report.fillMs / 1000, target: report.targetMs / 1000, at: time)
            ratioBits.store(r.bitPattern, ordering: .relaxed)
        }
    }

    /// What Home shows (call at the status rate): rate, block, the master page's latency, dropouts
    /// (every listener's, plus blocks the server rendered late or could not queue), the render thread's load.
    public func status(at time: Double) -> StudioAudioStatus {
        let listeners = Set(fanOut.subscribers(of: .audio))
        let busy = busyNanoseconds.load(ordering: .relaxed)
        let late = lateRestarts.load(ordering: .relaxed) + ringDrops.load(ordering: .relaxed)
        return control.withLock { c in
            c.reports = c.reports.filter { listeners.contains($0.key) || time - $0.value.at <= Self.reportTimeout }
            if c.master != nil, time - c.lastMasterReport > Self.reportTimeout {
                c.master = nil
                c.masterReport = nil
                c.steering.pause()
                ratioBits.store(c.steering.ratio.bitPattern, ordering: .relaxed)
            }
            let dt = time - c.loadWindow.time
            if dt > 0.1 {
                c.cpuLoad = c.loadWindow.time > 0 ? min(100, Double(busy - c.loadWindow.busy) / (dt * 1e9) * 100) : 0
                c.loadWindow = (busy, time)
            }
            var s = StudioAudioStatus(backend: .browser, client: nil)
            s.rate = sampleRate
            s.period = blockFrames
            let block = Double(blockFrames) / sampleRate * 1000
            s.latencyMs = block + (c.masterReport?.latencyMs ?? 0)
            s.xruns = late + c.reports.values.reduce(0) { $0 + $1.report.dropouts }
            s.cpuLoad = c.cpuLoad
            s.listeners = listeners.count
            s.ratePPM = (Double(bitPattern: ratioBits.load(ordering: .relaxed)) - 1) * 1e6
            s.note = listeners.isEmpty ? "browser audio: open a page and tap Listen (a secure context: localhost or https)" : nil
            return s
        }
    }
}
