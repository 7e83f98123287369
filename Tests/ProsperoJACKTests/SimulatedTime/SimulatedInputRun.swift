import Ariel
import ProsperoJACK
import ProsperoTestSupport
import Touchstone

/// Live input on simulated time, through the code that runs live: each event arrives (stamped on the host's clock),
/// is handed to the audio side a little later by the input thread (``JACKInputClock/dueFrame(forArrival:)``, then
/// `EngineHost.send(_:dueAt:)`), and the simulated server's callbacks publish each period's start
/// (``JACKPeriodClock``) and render it (`EngineHost.process(…blockStart:)`), so every event's due frame and the frame
/// it was applied at come out exactly, the same on every run.
struct SimulatedInputRun {
    /// An input event: when it arrived and how long the input thread took to hand it over (seconds, the audio
    /// thread's clock; the host stamps it on its own).
    struct Event: Sendable {
        var arrival: Double
        var handoff: Double
    }

    /// What happened to one event.
    struct Outcome: Sendable, CustomStringConvertible {
        var arrival: Double
        /// The card's frame clock at the arrival, frames since the run's first cycle (real: where the event was).
        var arrivalFrame: Double
        var due: UInt32?
        var applied: UInt32?
        /// Frames the event was applied after its due frame (0: on time; nil: not applied or no due frame).
        var lateness: Int? {
            guard let due, let applied else { return nil }
            return Int(Int32(bitPattern: applied &- due))
        }
        var description: String {
            "arrival \(arrival) s (frame \(arrivalFrame)), due \(due.map(String.init) ?? "–"), applied \(applied.map(String.init) ?? "–")"
        }
    }

    var outcomes: [Outcome]
    /// Command numbers in the order the engine applied them.
    var order: [Int]
    /// The host's count of events applied after their frame.
    var lateCommands: Int
    var cycles: [SimulatedCycle]

    /// Events on time, in frames from the run's first cycle: `due − arrival frame` per applied event.
    func delays(firstFrame: UInt32) -> [Double] {
        outcomes.compactMap { o in o.due.map { Double(Int32(bitPattern: $0 &- firstFrame)) - o.arrivalFrame } }
    }

    /// Plays `events` (arrival order) against `cadence`'s cycles with `delay`, until every event was applied.
    static func play(_ events: [Event], cadence: SimulatedCadence, delay: JACKInputClock.Delay = .standard,
                     start: Double = 100) -> SimulatedInputRun {
        let time = SimulatedClocks()
        let input = JACKInputClock(delay: delay, clocks: time.clocks)
        let periods = JACKPeriodClock()
        input.attach(periods: periods, sampleRate: cadence.sampleRate, period: cadence.period)
        let engine = FrameRecordingEngine(commands: events.count)
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: cadence.sampleRate, maximumBlockSize: cadence.period,
                                                                channelCount: 2))
        let last = (events.map { $0.arrival + $0.handoff }.max() ?? start) - start
        let cycles = cadence.cycles(Int(last / cadence.periodSeconds) + 64, start: start)
        var dues = [UInt32?](repeating: nil, count: events.count)
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: cadence.period)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: cadence.period)
        defer { left.deallocate(); right.deallocate() }
        SimulatedTimeline.run(cycles: cycles, handoffs: SimulatedTimeline.handoffs(events), time: time, periods: periods, hand: { i in
            // The event was stamped on the host's clock when it arrived.
            dues[i] = input.dueFrame(forArrival: time.host(events[i].arrival))
            host.send(i, dueAt: dues[i])
        }, render: { cycle in
            engine.begin(block: cycle.frame)
            host.process(left: left, right: right, blockStart: cycle.frame)
        })
        let outcomes = events.indices.map { i in
            Outcome(arrival: events[i].arrival, arrivalFrame: cadence.frame(at: events[i].arrival, start: start), due: dues[i],
                    applied: engine.applied[i])
        }
        return SimulatedInputRun(outcomes: outcomes, order: engine.order, lateCommands: host.lateCommandCount, cycles: cycles)
    }

    /// `count` events over `seconds` from `start`, 5–15 ms apart (a tracker's frames) at any phase of the period, each
    /// handed over within `handoff` seconds (uniform), from a seeded generator.
    static func arrivals(_ count: Int, start: Double = 100.01, handoff: ClosedRange<Double>, seed: UInt64) -> [Event] {
        var random = SeededRandom(seed: seed)
        func draw(_ range: ClosedRange<Double>) -> Double { range.lowerBound + random.uniform() * (range.upperBound - range.lowerBound) }
        var t = start
        var events: [Event] = []
        for _ in 0..<count {
            t += draw(0.005...0.015)
            events.append(Event(arrival: t, handoff: draw(handoff)))
        }
        return events
    }
}
