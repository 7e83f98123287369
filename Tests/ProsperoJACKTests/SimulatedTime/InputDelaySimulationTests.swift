import ProsperoJACK
import Testing

/// The input delay on simulated time: arrivals, input-thread handoffs and a JACK server's periods (steady, jittered,
/// late and in bursts, with xruns, with a drifting card clock) from seeded generators, played through
/// ``JACKInputClock``, ``JACKPeriodClock`` and `EngineHost`'s placement (``SimulatedInputRun``). Every run gives the
/// same answer on every machine. What these prove is the logic: an event handed to the audio side within the delay's
/// margin is applied at its due sample, exactly the delay after its arrival; how long a real machine's input path
/// takes, and so which margin it needs, is measured by the live bench (`scripts/bench/live`).
@Suite struct InputDelaySimulationTests {
    static let margin = JACKInputClock.Delay.defaultMarginFrames

    static func delay(_ period: Int) -> Double { Double(JACKInputClock.Delay.standard.frames(period: period)) }

    /// Steady periods, events at any phase, each handed over within the margin: every one is applied at its due
    /// sample, and its due frame is the default delay (one period and the margin) after the frame it arrived in,
    /// within the half frame of rounding. One frame more or less of delay anywhere on the path fails this.
    @Test(arguments: [64, 128, 256])
    func onSteadyPeriodsEveryEventIsAppliedExactlyTheDelayAfterItsArrival(period: Int) {
        let cadence = SimulatedCadence(period: period, seed: 11)
        let events = SimulatedInputRun.arrivals(400, handoff: 0...(Double(Self.margin) / 48_000), seed: 7)
        let run = SimulatedInputRun.play(events, cadence: cadence)
        #expect(run.lateCommands == 0)
        #expect(run.outcomes.allSatisfy { $0.lateness == 0 }, "\(run.outcomes.filter { $0.lateness != 0 }.prefix(5))")
        #expect(run.order == Array(events.indices), "applied in send order")
        let delays = run.delays(firstFrame: cadence.firstFrame)
        let off = delays.filter { abs($0 - Self.delay(period)) > 0.5 + 1e-6 }
        #expect(off.isEmpty, "due frames not \(Self.delay(period)) after arrival: \(off.prefix(5))")
    }

    /// The worst case the default delay is sized for: an event that arrived `margin` frames before a period's start
    /// and reached the audio side just after it (its thread crossed the period's start) is due at the next period's
    /// first sample, on time with nothing to spare. A delay one frame shorter makes it one frame late, and so does
    /// one frame more of crossing: the default is the least delay that keeps such a frame on time.
    @Test(arguments: [64, 128, 256])
    func theDefaultDelayIsTheLeastThatKeepsAFrameThatCrossedAPeriodStartOnTime(period: Int) {
        let cadence = SimulatedCadence(period: period, seed: 3)
        let start = 100.0
        let periodStart = start + 20 * cadence.periodSeconds
        func crossing(_ frames: Int, delay: JACKInputClock.Delay) -> SimulatedInputRun.Outcome {
            // Arrived `frames` frames (and a quarter, away from rounding ties) before the period's start; handed over
            // 10 µs after it.
            let arrival = periodStart - (Double(frames) + 0.25) / 48_000
            let event = SimulatedInputRun.Event(arrival: arrival, handoff: periodStart + 10e-6 - arrival)
            return SimulatedInputRun.play([event], cadence: cadence, delay: delay, start: start).outcomes[0]
        }
        let next = cadence.firstFrame &+ UInt32(21 * period)
        let onTime = crossing(Self.margin, delay: .standard)
        #expect(onTime.due == next && onTime.lateness == 0, "\(onTime)")
        let shorter = crossing(Self.margin, delay: .periodsAndFrames(periods: 1, frames: Self.margin - 1))
        #expect(shorter.lateness == 1 && shorter.applied == next, "\(shorter)")
        let further = crossing(Self.margin + 1, delay: .standard)
        #expect(further.lateness == 1 && further.applied == next, "\(further)")
    }

    /// Wake-ups up to half a period after their periods' starts, and every seventh period a period and a half late
    /// with the held-back ones following in a burst: no event handed over within the margin is late, because each is
    /// placed from the period the audio thread actually ran, not from an extrapolated clock. The delay then varies by
    /// how late that period woke, and by no more. Placed from a late wake-up, an event can be due before the one sent
    /// ahead of it: it is applied right after that one (send order is kept), never counted late.
    @Test(arguments: [64, 128, 256], [1, 2, 3] as [UInt64])
    func lateAndBurstingPeriodsKeepEveryEventOnTime(period: Int, seed: UInt64) {
        var cadence = SimulatedCadence(period: period, seed: seed)
        cadence.jitter = cadence.periodSeconds / 2
        cadence.lateEvery = 7
        cadence.latePeriods = 1.5
        let events = SimulatedInputRun.arrivals(400, handoff: 0...(Double(Self.margin) / 48_000), seed: seed &+ 100)
        let run = SimulatedInputRun.play(events, cadence: cadence)
        #expect(run.lateCommands == 0, "\(cadence)")
        #expect(run.order == Array(events.indices), "applied in send order")
        var previous: UInt32?
        for outcome in run.outcomes {
            guard let due = outcome.due, let applied = outcome.applied else {
                Issue.record("not applied: \(outcome)")
                continue
            }
            // At its due frame, or at the frame of the one before it when that one was due later.
            let expected = previous.map { Int32(bitPattern: due &- $0) < 0 ? $0 : due } ?? due
            #expect(applied == expected, "\(cadence): \(outcome), the one before applied at \(previous.map(String.init) ?? "–")")
            previous = applied
        }
        let latestWake = run.cycles.map { ($0.wake - $0.idealStart) * 48_000 }.max() ?? 0
        #expect(latestWake > Double(period), "the cadence has late periods (\(latestWake) frames)")
        let delays = run.delays(firstFrame: cadence.firstFrame)
        let outside = delays.filter { $0 > Self.delay(period) + 0.5 || $0 < Self.delay(period) - latestWake - 0.5 }
        #expect(outside.isEmpty, "\(cadence): delays outside [D − \(latestWake), D]: \(outside.prefix(5))")
    }

    /// A cycle the client missed (an xrun: the server skipped its callback) makes late exactly the events due in the
    /// skipped period: they are applied at the next period's first sample and counted; none is lost, the order is
    /// kept, and every other event is on time.
    @Test(arguments: [64, 128, 256])
    func anXrunMakesOnlyTheEventsDueInTheSkippedPeriodLate(period: Int) {
        var cadence = SimulatedCadence(period: period, seed: 5)
        cadence.xrunEvery = 10
        let events = SimulatedInputRun.arrivals(600, handoff: 0...(Double(Self.margin) / 48_000), seed: 9)
        let run = SimulatedInputRun.play(events, cadence: cadence)
        #expect(run.order == Array(events.indices), "every event applied, in send order")
        let skipped = run.cycles.filter { !$0.runs }.map(\.frame)
        func inSkipped(_ frame: UInt32) -> UInt32? { skipped.first { frame &- $0 < UInt32(period) } }
        var late = 0
        for outcome in run.outcomes {
            guard let due = outcome.due, let applied = outcome.applied else {
                Issue.record("not applied: \(outcome)")
                continue
            }
            if let skippedStart = inSkipped(due) {
                late += 1
                #expect(applied == skippedStart &+ UInt32(period), "due in a skipped period, applied at the next one's start: \(outcome)")
            } else {
                #expect(applied == due, "\(outcome)")
            }
        }
        #expect(late > 0, "the xruns met some events")
        #expect(run.lateCommands == late)
    }

    /// A sound card whose clock runs 1 000 ppm fast or slow (the periods' frames against the host's seconds): events
    /// stay on time and within a frame of the delay, since each is placed from the latest period, never more than a
    /// few periods of drift away.
    @Test(arguments: [-1_000.0, 1_000.0])
    func aDriftingCardClockKeepsTheDelay(ppm: Double) {
        var cadence = SimulatedCadence(period: 128, seed: 8)
        cadence.driftPPM = ppm
        let events = SimulatedInputRun.arrivals(400, handoff: 0...(Double(Self.margin) / 48_000), seed: 4)
        let run = SimulatedInputRun.play(events, cadence: cadence)
        #expect(run.lateCommands == 0)
        let off = run.delays(firstFrame: cadence.firstFrame).filter { abs($0 - Self.delay(128)) > 1 }
        #expect(off.isEmpty, "\(off.prefix(5))")
    }

    /// Before the first period (no audio running yet) an event has no due frame: it is applied at the first period's
    /// start, not counted late; events that come once the periods run are timed again.
    @Test func eventsBeforeTheFirstPeriodAreAppliedAtItsStart() {
        let cadence = SimulatedCadence(period: 256, seed: 2)
        let early = [SimulatedInputRun.Event(arrival: 99.990, handoff: 0.0001), SimulatedInputRun.Event(arrival: 99.995, handoff: 0.0001)]
        let later = SimulatedInputRun.arrivals(20, start: 100.05, handoff: 0...0.0002, seed: 1)
        let run = SimulatedInputRun.play(early + later, cadence: cadence)
        #expect(run.outcomes[0].due == nil && run.outcomes[1].due == nil)
        #expect(run.outcomes[0].applied == cadence.firstFrame && run.outcomes[1].applied == cadence.firstFrame)
        #expect(run.outcomes.dropFirst(2).allSatisfy { $0.due != nil && $0.lateness == 0 })
        #expect(run.lateCommands == 0)
    }
}
