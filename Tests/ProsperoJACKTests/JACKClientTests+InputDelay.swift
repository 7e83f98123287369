import Ariel
import Enobarbus
import Foundation
import Glibc
import Hecate
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import ProsperoTestSupport
import Testing

/// The input delay (issue 30, item 3): how much a live face frame needs, measured in frames on `jackd -d dummy`.
///
/// Live Hecate runs in this process the way `prospero hecate` runs it (UDP source → live host → Hecate's adapter →
/// `JACKInputClock` → the engine host on JACK's thread), so that the test can read, for every face frame, the
/// margin the audio thread found it with (``EngineHost/latestTimingMargin``: from the start of the block that first
/// took it from the ring to its due frame). The frame needed `delay − margin` frames of input delay: the frames from
/// its arrival to the next period's start, plus the time its threads took to hand it to the audio thread, plus the
/// server's wake-up jitter. With any input delay at least that, it is applied at its due sample; with less, late
/// (at the next period's start, counted).
///
/// Native bundles (a face frame each, jawOpen moving, head still) are sent 5–15 ms apart at any phase of the period.
/// A frame the machine's load disturbed (an xrun, the server's periods off time, this process's or jackd's threads
/// kept from a CPU) is judged disturbed and not counted; the frames of up to six runs are pooled.
extension JACKClientTests {
    struct InputMarginRun: CustomStringConvertible {
        var period: Int
        /// The input delay the run played with, frames.
        var delay: Int
        /// Per undisturbed face frame, the input delay it needed (frames): `delay − margin`.
        var needs: [Int]
        /// Per undisturbed face frame (same order as ``needs``), the frames the machine took around it: how long
        /// the threads of this process and jackd waited for a CPU between its send and the audio thread taking it
        /// (at most ``inputWaitAllowance``), plus how far the server's periods came off their cadence around it
        /// (at most a period: a late period start is a smaller margin for every frame it takes). Time the machine
        /// took from the input path, not time the path spent.
        var waits: [Int]
        /// Per disturbed face frame, what it needed (not judged).
        var disturbedNeeds: [Int]
        /// Per frame that every probe judged undisturbed but that needed more than ``implausibleNeed(period:)``.
        var implausibleNeeds: [Int] = []
        /// Late commands the engine host counted, disturbed frames included.
        var lateCommands: Int

        var worst: Int { needs.max() ?? .max }
        /// The most any undisturbed frame needed beyond what the machine was measured taking around it.
        var worstBeyondWait: Int { zip(needs, waits).map { $0 - $1 }.max() ?? .max }
        /// The `q`-quantile of the undisturbed needs (0…1).
        func quantile(_ q: Double) -> Int {
            let sorted = needs.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
        }
        /// Undisturbed frames that needed more than a period (their threads crossed a period's start).
        var overAPeriod: Int { needs.filter { $0 > period }.count }

        var description: String {
            "-p \(period), input delay \(delay): \(needs.count) undisturbed face frames needed "
                + "\(needs.min() ?? 0) … \(worst == .max ? 0 : worst) frames (median \(quantile(0.5)), 90 % \(quantile(0.9)), "
                + "99 % \(quantile(0.99))), \(overAPeriod) over a period; \(disturbedNeeds.count) disturbed "
                + "(needed up to \(disturbedNeeds.max() ?? 0)); implausible \(implausibleNeeds); late commands \(lateCommands)"
        }
    }

    static let inputMarginEvents = 100

    /// Eight periods (and at least 20 ms): more than any input path takes with its threads on a CPU and the periods
    /// on time; a frame that needed more while the probes read quiet met a disturbance they missed.
    static func implausibleNeed(period: Int) -> Int { max(8 * period, 960) }

    /// One run: a fresh server and live Hecate in this process, `events` undisturbed face frames wanted.
    static func measureInputMargins(period: Int, delay: JACKInputClock.Delay, events: Int) throws -> InputMarginRun {
        let server = try JACKTestServer(period: period)
        let probe = try LatencyProbe(serverName: server.name)
        defer { probe.close() }
        let stop = LiveStop()
        let engine = DroneSynthEngine()
        let handler = EngineProcessHandler(engine: engine, latency: { engine, _ in engine.latencySamples })
        let inputClock = JACKInputClock(delay: delay)
        let session = LiveSession(handler: handler, options: LiveSessionOptions(
            client: server.configuration(client: "InputDelayHecate"), audioConnection: .never, handlesSignals: false),
                                  stop: stop, log: { _ in }, inputClock: inputClock)
        let source = UDPDatagramSource(port: 0)
        let instrument = HecateLiveInstrument(host: handler.host, chords: [], clock: nil, frameClock: inputClock)
        let live = LiveHost(source: source, instrument: instrument, stop: stop)
        try live.start()
        let finished = DispatchGroup()
        DispatchQueue.global().async(group: finished) { _ = try? session.run() }
        DispatchQueue.global().async(group: finished) { _ = try? live.run() }
        defer {
            _ = stop.request(.requested)
            finished.wait()
        }
        try waitUntil("the session to play", timeout: .seconds(10)) { inputClock.dueFrame(forArrival: MonotonicClock.now()) != nil }
        let port = source.boundPort
        let sender = try UDPTestSender()
        func face(_ jaw: Float) -> [UInt8] {
            try! OSCEncoder.encode(.bundle(OSCBundle([
                .message(OSCMessage("/prospero/face/blend", [.string("jawOpen"), .float32(jaw)])),
                .message(OSCMessage("/prospero/face/head", [.float32(0), .float32(0), .float32(0)])),
            ])))
        }
        // The face appears (fade-in, not measured), then frames follow while it stays in view.
        _ = sender.send(face(0.5), port: port)
        usleep(200_000)

        let delayFrames = inputClock.delay(forPeriod: period)
        let periodMicroseconds = period * 1_000_000 / 48_000
        let measured = [server.jackd.pid, getpid()]
        var needs: [Int] = [], disturbedNeeds: [Int] = [], implausible: [Int] = []
        var samples: [(need: Int, waited: Int, cadence: Int)] = []
        var pending: (need: Int, waitFrames: Int, xrunsBefore: Int, quiet: Bool)?
        var waits: [Int] = []
        func judge() {
            guard let event = pending else { return }
            pending = nil
            if event.quiet && probe.xruns.load(ordering: .relaxed) == event.xrunsBefore && event.need > Self.implausibleNeed(period: period) {
                // Every probe read quiet, yet the frame came later than any input path takes (seen once on a busy
                // machine: 9 677 frames at -p 64, 200 ms): the server's clock was misread around it. Counted, and the
                // verdict allows at most 1 % of such frames, so a path that is really late this often still fails.
                implausible.append(event.need)
            } else if event.quiet && probe.xruns.load(ordering: .relaxed) == event.xrunsBefore {
                needs.append(event.need)
                waits.append(event.waitFrames)
            } else {
                disturbedNeeds.append(event.need)
            }
        }
        var sent = 0
        while needs.count + (pending == nil ? 0 : 1) < events && sent < 5 * events {
            usleep(UInt32.random(in: 5_000..<15_000))  // any phase of the period; the face stays in view
            judge()
            let xrunsBefore = probe.xruns.load(ordering: .relaxed)
            _ = probe.takeCadenceSpread()
            let waitBefore = RunQueueWait.snapshot(measured)
            let seen = handler.host.timedEventCount
            _ = sender.send(face(Float.random(in: 0.2...0.9)), port: port)
            sent += 1
            // Polled closely: the run-queue wait is read as soon as the audio thread took the frame.
            let deadline = ContinuousClock.now + .seconds(2)
            while handler.host.timedEventCount == seen {
                guard ContinuousClock.now < deadline else { throw TimedOut(what: "face frame \(sent) on the audio thread") }
                usleep(100)
            }
            let margin = handler.host.latestTimingMargin
            var waited = 0
            if let before = waitBefore, let since = RunQueueWait.waited(measured, since: before) { waited = since }
            usleep(UInt32(2 * periodMicroseconds))  // the periods around its due frame pass
            let cadence = probe.takeCadenceSpread()
            samples.append((delayFrames - margin, waited, cadence))
            pending = (delayFrames - margin, waited * 48_000 / 1_000_000_000 + cadence * 48_000 / 1_000_000, xrunsBefore,
                       waited <= Self.inputWaitAllowance && cadence <= periodMicroseconds)
        }
        usleep(100_000)
        judge()
        let run = InputMarginRun(period: period, delay: delayFrames, needs: needs, waits: waits, disturbedNeeds: disturbedNeeds,
                                 implausibleNeeds: implausible, lateCommands: handler.host.lateCommandCount)
        print("input margin run: \(run)")
        for limit in [100_000, 250_000, 500_000, 1_000_000, Int.max] {
            let kept = samples.filter { $0.waited <= limit && $0.cadence <= periodMicroseconds }.map(\.need).sorted()
            guard !kept.isEmpty else { continue }
            print("  waited ≤ \(limit / 1000) µs: n \(kept.count), need \(kept.first!) … \(kept.last!), median \(kept[kept.count / 2]), 90 % \(kept[kept.count * 9 / 10]), 99 % \(kept[kept.count * 99 / 100]), over a period \(kept.filter { $0 > period }.count)")
        }
        return run
    }

    /// Run-queue wait (nanoseconds, all threads of this process and jackd, from a frame's send until it reached the
    /// audio thread and two periods passed) beyond which a frame is judged disturbed: the input threads are
    /// ordinary threads, and a build that keeps them from a CPU for longer holds a frame back by as much.
    static let inputWaitAllowance = 250_000

    /// Every undisturbed face frame is applied at its due sample with the default input delay (`--input-delay`'s
    /// default: one period plus ``JACKInputClock/Delay/defaultMarginFrames``), at every period; the frames
    /// needed are printed (docs/latency.md quotes them).
    @Test(.enabled(if: Peers.runnable("jackd")), arguments: [64, 128, 256])
    func inputDelayKeepsEveryFaceFrameOnTime(period: Int) throws {
        // At a load average of 12 on 2 cores, about one frame in ten is undisturbed: up to six runs of 500 sends.
        let (pooled, enough) = try Self.pooledRuns(
            runs: 6, wanted: Self.inputMarginEvents, count: { $0.needs.count },
            measure: { try Self.measureInputMargins(period: period, delay: .standard, events: Self.inputMarginEvents) },
            merge: { run, next in
                run.needs += next.needs
                run.waits += next.waits
                run.disturbedNeeds += next.disturbedNeeds
                run.implausibleNeeds += next.implausibleNeeds
                run.lateCommands += next.lateCommands
            })
        guard let run = pooled, enough else {
            Issue.record("input delay -p \(period): six runs kept \(pooled?.needs.count ?? 0) undisturbed face frames of \(Self.inputMarginEvents)")
            return
        }
        print("input delay: \(run)")
        // A need at or below 0 is impossible for a frame whose arrival the JACK clock placed right: it is the
        // server's time estimate of a loaded machine (its period start read late), tens of frames at most. A few
        // such frames are that; many, or any beyond a period, would mean the measurement itself is broken.
        let impossible = run.needs.filter { $0 <= 0 }
        #expect(impossible.count * 20 <= run.needs.count && impossible.allSatisfy { $0 > -period },
                "more than 5 % of the frames, or one by more than a period, placed before their arrival: \(impossible) in \(run)")
        // The verdict: with the default input delay, no undisturbed frame needed more than the delay plus what the
        // machine was measured taking around it (a frame judged undisturbed may have waited up to 250 µs for a CPU
        // and met periods up to a period off their cadence; that time is the machine's, not the input path's),
        // within what the run itself shows the server's time estimate can misplace a frame by (its most impossible
        // need; 0 on a quiet run).
        #expect(run.implausibleNeeds.count * 100 <= run.needs.count,
                "more than 1 % of the quiet frames came later than \(Self.implausibleNeed(period: period)) frames: \(run)")
        let placementError = max(0, -(run.needs.min() ?? 0))
        #expect(run.worstBeyondWait - placementError <= run.delay,
                "an undisturbed face frame was late beyond the machine's measured time and the run's \(placementError)-frame placement error (worst beyond its wait: \(run.worstBeyondWait)): \(run)")
    }

    /// `--input-delay` takes frames, periods or both; the default is one period and the measured margin; a bad
    /// value is refused before anything starts, with the forms it takes named.
    @Test(.enabled(if: TestPeers.prospero != nil))
    func inputDelayOptionNamesItsFormsAndDefault() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable")
        let help = try TestPeers.runBlocking(prospero.path, ["hands", "--help"], timeout: 30)
        #expect(help.output.contains("default: 1p+\(JACKInputClock.Delay.defaultMarginFrames)"), "\(help.output)")
        for bad in ["1p+x", "1p+", "17p", "1p+2p", "p"] {
            let result = try TestPeers.runBlocking(prospero.path, ["hecate", "--input-delay", bad], timeout: 30)
            #expect(result.status != 0 && result.output.contains("--input-delay must be") && result.output.contains("'\(bad)'"),
                    "\(bad): \(result.output)")
        }
        #expect(JACKInputClock.Delay.standard.frames(period: 64) == 64 + JACKInputClock.Delay.defaultMarginFrames)
        #expect(JACKInputClock.Delay.periodsAndFrames(periods: 2, frames: 5).frames(period: 128) == 261)
        #expect(JACKInputClock.Delay.standard.description == "1 period + \(JACKInputClock.Delay.defaultMarginFrames) frames")
    }
}
