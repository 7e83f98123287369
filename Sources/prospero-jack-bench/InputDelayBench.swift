import Dispatch
import Enobarbus
import Foundation
import Glibc
import Hecate
import LiveHost
import LiveHostPOSIX
import ProsperoJACK

/// `prospero-jack-bench input-delay`: the input delay each live face frame needs, with the default delay.
///
/// Live Hecate runs in the bench's process the way `prospero hecate` runs it (UDP source → live host → Hecate's
/// adapter → `JACKInputClock` → the engine host on JACK's thread), so that the bench reads, for every face frame,
/// the margin the audio thread found it with (``EngineHost/latestTimingMargin``: from the start of the block that
/// first took it from the ring to its due frame). The frame needed `delay − margin` frames of input delay: from its
/// arrival to the next period's start, plus its threads' time to hand it over, plus the server's wake-up jitter.
/// Native bundles (jawOpen moving, head still) are sent 5–15 ms apart, at any phase of the period.
enum InputDelayBench {
    static let wanted = 100
    static let maximumSends = 5 * wanted
    /// The CPU waits the needs are also told by (µs), as docs/latency.md tabulates them.
    static let waitLimits = [100, 250, 500]

    struct Run {
        var needs: [Int] = []
        /// Per undisturbed frame (as ``needs``), the frames the machine took around it: its threads' CPU wait and how
        /// far the periods came off their cadence.
        var machine: [Int] = []
        var causes: [EventWatch.Cause] = []
        var disturbedNeeds: [Int] = []
        var implausible = 0
        var lateCommands = 0
        /// Every frame sent: what it needed, its threads' CPU wait (ns) and the cadence spread (µs).
        var samples: [(need: Int, waited: Int, cadence: Int)] = []
    }

    static func rows(on server: BenchServer) -> [BenchRow] {
        let figure = "input delay needed, native bundle → in-process Hecate"
        let period = server.period, delay = server.defaultInputDelay
        let run: Run
        do {
            run = try measure(on: server)
        } catch {
            return [BenchRow(figure: figure, period: period, sample: "", median: "", spread: "", failure: "\(error)")]
        }
        let needs = run.needs
        let causes = EventWatch.Cause.allCases.compactMap { cause -> String? in
            let n = run.causes.filter { $0 == cause }.count
            return n > 0 ? "\(cause) \(n)" : nil
        } + (run.implausible > 0 ? ["implausibly late \(run.implausible)"] : [])
        let sample = "\(needs.count) of \(run.samples.count)" + (causes.isEmpty ? "" : " (disturbed: \(causes.joined(separator: ", ")))")
        func quantiles(_ values: [Int]) -> String {
            guard let q90 = values.quantile(0.9), let q99 = values.quantile(0.99) else { return "—" }
            return "\(values.spread) (90 % \(q90), 99 % \(q99), \(values.filter { $0 > period }.count) over a period)"
        }
        var rows = [BenchRow(
            figure: figure + " (default delay \(delay))", period: period, sample: sample, median: needs.median.map(String.init) ?? "—",
            spread: quantiles(needs),
            allEvents: "disturbed needed up to \(run.disturbedNeeds.max().map(String.init) ?? "—"); \(run.lateCommands) late commands",
            checks: BenchTargets.inputDelay(needs: needs, beyondWait: zip(needs, run.machine).map { $0 - $1 }, implausible: run.implausible,
                                            delay: delay, period: period, wanted: wanted))]
        // What the frames needed by how long their threads waited for a CPU (xruns not judged): the table the
        // default delay was chosen from.
        for limit in waitLimits + [Int.max] {
            let kept = run.samples.filter { (limit == .max || $0.waited <= limit * 1_000) && $0.cadence <= period * 1_000_000 / server.sampleRate }.map(\.need)
            rows.append(BenchRow(
                figure: "input delay needed, threads waited " + (limit == .max ? "any time" : "≤ \(limit) µs"), period: period,
                sample: "\(kept.count) of \(run.samples.count)", median: kept.median.map(String.init) ?? "—", spread: quantiles(kept)))
        }
        return rows
    }

    static func measure(on server: BenchServer) throws -> Run {
        let probe = try LatencyProbe(serverName: server.name)
        defer { probe.close() }
        let stop = LiveStop()
        let engine = DroneSynthEngine()
        let handler = EngineProcessHandler(engine: engine, latency: { engine, _ in engine.latencySamples })
        let inputClock = JACKInputClock(delay: .standard)
        let session = LiveSession(handler: handler, options: LiveSessionOptions(
            client: JACKClient.Configuration(clientName: "BenchInputDelay", serverName: server.name), audioConnection: .never,
            handlesSignals: false), stop: stop, log: { _ in }, inputClock: inputClock)
        let source = UDPDatagramSource(port: 0)
        let live = LiveHost(source: source, instrument: HecateLiveInstrument(host: handler.host, chords: [], clock: nil, frameClock: inputClock),
                            stop: stop)
        try live.start()
        let finished = DispatchGroup()
        DispatchQueue.global().async(group: finished) { _ = try? session.run() }
        DispatchQueue.global().async(group: finished) { _ = try? live.run() }
        defer {
            _ = stop.request(.requested)
            finished.wait()
        }
        try Bench.wait(for: "the live session to play", seconds: 30) { inputClock.dueFrame(forArrival: MonotonicClock.now()) != nil }
        let port = source.boundPort
        let sender = try UDPSender()
        func face(_ jaw: Float) -> [UInt8] {
            try! OSCEncoder.encode(.bundle(OSCBundle([
                .message(OSCMessage("/prospero/face/blend", [.string("jawOpen"), .float32(jaw)])),
                .message(OSCMessage("/prospero/face/head", [.float32(0), .float32(0), .float32(0)])),
            ])))
        }
        // The face appears (its fade-in, not measured), then frames follow while it stays in view.
        sender.send(face(0.5), port: port)
        usleep(200_000)

        let delay = inputClock.delay(forPeriod: server.period)
        let frameRate = Double(server.sampleRate)
        let watch = EventWatch(probe: probe, pids: [getpid()] + (server.jackdPID.map { [$0] } ?? []),
                               waitAllowance: BenchTargets.inputWaitAllowance)
        var run = Run()
        var pending: (need: Int, machine: Int, verdict: EventWatch.Verdict)?
        func judge() {
            guard let event = pending else { return }
            pending = nil
            let cause = watch.judge(event.verdict)
            if cause == nil && event.need > BenchTargets.implausibleNeed(period: server.period) {
                run.implausible += 1
            } else if let cause {
                run.causes.append(cause)
                run.disturbedNeeds.append(event.need)
            } else {
                run.needs.append(event.need)
                run.machine.append(event.machine)
            }
        }
        var sent = 0
        while run.needs.count + (pending == nil ? 0 : 1) < wanted && sent < maximumSends {
            usleep(UInt32.random(in: 5_000..<15_000))  // any phase of the period; the face stays in view
            judge()
            let mark = watch.begin()
            let seen = handler.host.timedEventCount
            sender.send(face(Float.random(in: 0.2...0.9)), port: port)
            sent += 1
            // Polled closely: the CPU wait is read as soon as the audio thread took the frame.
            let deadline = ContinuousClock.now + .seconds(2)
            while handler.host.timedEventCount == seen {
                guard ContinuousClock.now < deadline else { throw BenchFailure("face frame \(sent) never reached the audio thread") }
                usleep(100)
            }
            let margin = handler.host.latestTimingMargin
            let waited = watch.waited(since: mark)
            usleep(UInt32(2 * probe.periodMicroseconds))  // the periods around its due frame pass
            let verdict = watch.end(mark, waited: waited)
            run.samples.append((delay - margin, waited, verdict.cadence))
            let machine = Int(Double(waited) * frameRate / 1e9 + Double(verdict.cadence) * frameRate / 1e6)
            pending = (delay - margin, machine, verdict)
        }
        usleep(100_000)
        judge()
        run.lateCommands = handler.host.lateCommandCount
        return run
    }
}
