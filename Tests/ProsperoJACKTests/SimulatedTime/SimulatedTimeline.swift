import ProsperoJACK

/// The one loop of a simulation: input handoffs and a simulated server's callbacks in time order on simulated time.
/// Before each callback that runs, every handoff due before its wake-up happens (time set to the handoff, `hand(i)`);
/// then the callback publishes its period's start, as the JACK process callback does, and renders it (`render`).
enum SimulatedTimeline {
    static func run(cycles: [SimulatedCycle], handoffs: [Double], time: SimulatedClocks, periods: JACKPeriodClock,
                    hand: (Int) -> Void, render: (SimulatedCycle) -> Void) {
        var next = 0
        for cycle in cycles {
            while next < handoffs.count && handoffs[next] < cycle.wake {
                time.set(handoffs[next])
                hand(next)
                next += 1
            }
            guard cycle.runs else { continue }
            time.set(cycle.wake)
            periods.publish(frame: cycle.frame, nanoseconds: time.audioNanoseconds(cycle.wake))
            render(cycle)
        }
    }

    /// When each event reaches the audio side: its arrival plus its handoff, but never before the one ahead of it (the
    /// input thread hands events over one after another).
    static func handoffs(_ events: [SimulatedInputRun.Event]) -> [Double] {
        var times: [Double] = []
        for event in events { times.append(max(event.arrival + event.handoff, times.last ?? -.infinity)) }
        return times
    }
}
