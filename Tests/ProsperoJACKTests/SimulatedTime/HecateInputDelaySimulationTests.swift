import Ariel
import Enobarbus
import Hecate
import LiveHost
import ProsperoJACK
import Testing
import Touchstone

/// Live Hecate on simulated time: face frames through the one adapter every front end drives
/// (`HecateLiveInstrument`, its commands due at each frame's arrival plus the input delay from ``JACKInputClock``)
/// into the engine's host on a simulated server's jittered periods. The same answer on every run.
@Suite struct HecateInputDelaySimulationTests {
    struct Played {
        var frames: Int
        var timedEvents: Int
        var lateCommands: Int
        var smallestMargin: Int?
    }

    /// `count` face frames (jawOpen moving, 5–15 ms apart, each handed over within `handoff` seconds) played with
    /// `delay` against `cadence`.
    static func play(_ count: Int, cadence: SimulatedCadence, delay: JACKInputClock.Delay, handoff: ClosedRange<Double>) -> Played {
        let time = SimulatedClocks()
        let input = JACKInputClock(delay: delay, clocks: time.clocks)
        let periods = JACKPeriodClock()
        input.attach(periods: periods, sampleRate: cadence.sampleRate, period: cadence.period)
        let host = EngineHost(engine: DroneSynthEngine(), spec: ProcessSpec(sampleRate: cadence.sampleRate, maximumBlockSize: cadence.period,
                                                                              channelCount: 2))
        let instrument = HecateLiveInstrument(host: host, chords: [], clock: nil, frameClock: input)
        let events = SimulatedInputRun.arrivals(count, handoff: handoff, seed: cadence.seed &+ 17)
        let cycles = cadence.cycles(Int(((events.last?.arrival ?? 100) - 100) / cadence.periodSeconds) + 64, start: 100)
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: cadence.period)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: cadence.period)
        defer { left.deallocate(); right.deallocate() }
        SimulatedTimeline.run(cycles: cycles, handoffs: SimulatedTimeline.handoffs(events), time: time, periods: periods, hand: { i in
            let arrival = time.host(events[i].arrival)
            let jaw = Float(0.2 + 0.6 * Double((i * 7) % 10) / 10)
            instrument.receive([.face(FaceFrame(timestamp: arrival, blendshapes: BlendshapeWeights([.jawOpen: jaw])))], at: arrival)
            instrument.advance(to: time.host(time.audioSeconds))
        }, render: { cycle in
            host.process(left: left, right: right, blockStart: cycle.frame)
        })
        return Played(frames: events.count, timedEvents: host.timedEventCount, lateCommands: host.lateCommandCount,
                      smallestMargin: host.smallestTimingMargin)
    }

    /// With the default delay every face frame handed over within its margin reaches the engine on time, on
    /// jittered periods with late ones and bursts, at every period size.
    @Test(arguments: [64, 128, 256])
    func everyFaceFrameIsOnTimeWithTheDefaultDelay(period: Int) {
        var cadence = SimulatedCadence(period: period, seed: UInt64(period))
        cadence.jitter = cadence.periodSeconds / 2
        cadence.lateEvery = 9
        cadence.latePeriods = 1
        let played = Self.play(300, cadence: cadence, delay: .standard,
                               handoff: 0...(Double(JACKInputClock.Delay.defaultMarginFrames) / 48_000))
        #expect(played.timedEvents == played.frames, "each face frame one timed event: \(played)")
        #expect(played.lateCommands == 0, "\(played)")
        #expect((played.smallestMargin ?? -1) >= 0, "\(played)")
    }

    /// The same frames with no input delay: those that arrive while a period renders miss it, and are late. The
    /// check above can fail.
    @Test func withoutTheDelayFaceFramesAreLate() {
        let cadence = SimulatedCadence(period: 128, seed: 128)
        let played = Self.play(300, cadence: cadence, delay: .frames(0), handoff: 0...0.0003)
        #expect(played.timedEvents == played.frames)
        #expect(played.lateCommands > 100, "\(played)")
        #expect((played.smallestMargin ?? 0) < 0, "\(played)")
    }
}
