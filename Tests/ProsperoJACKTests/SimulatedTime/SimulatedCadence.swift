import ProsperoTestSupport

/// How a simulated JACK server's periods come: when each cycle's callback wakes after the period's ideal start,
/// which cycles the client misses (xruns) and how fast the sound card's frame clock runs against the host's.
/// Every draw comes from one seeded generator, so a cadence gives the same cycles on every run.
struct SimulatedCadence: Sendable, CustomStringConvertible {
    /// Frames per period.
    var period: Int
    /// The card's nominal rate, frames per second.
    var sampleRate = 48_000.0
    /// How far the card's clock runs from nominal, parts per million (positive: fast).
    var driftPPM = 0.0
    /// Each wake-up comes up to this many seconds after its period's ideal start (uniform, seeded).
    var jitter = 0.0
    /// Every `lateEvery`-th cycle (0: none) wakes `latePeriods` periods late; the cycles it held back then follow
    /// in a burst, each as soon as the one before ended (``callbackSeconds``), the way a driver catches up.
    var lateEvery = 0
    var latePeriods = 0.0
    /// Every `xrunEvery`-th cycle (0: none) passes without the client's callback (the server skipped it).
    var xrunEvery = 0
    /// How long a callback runs, seconds: the least time between two wake-ups in a burst.
    var callbackSeconds = 50e-6
    /// The frame time of the first cycle (near the 32-bit wrap by default, so that runs cross it).
    var firstFrame = UInt32.max - 20_000
    var seed: UInt64 = 1

    /// Seconds a period lasts on the host's clock.
    var periodSeconds: Double { Double(period) / (sampleRate * (1 + driftPPM * 1e-6)) }

    var description: String {
        "-p \(period), drift \(driftPPM) ppm, jitter \(jitter * 1e6) µs, late every \(lateEvery) by \(latePeriods) periods, "
            + "xrun every \(xrunEvery), seed \(seed)"
    }

    /// The first `count` cycles, the first one ideally starting at `start` seconds (the audio thread's clock).
    func cycles(_ count: Int, start: Double) -> [SimulatedCycle] {
        var random = SeededRandom(seed: seed)
        var cycles: [SimulatedCycle] = []
        cycles.reserveCapacity(count)
        var lastWake = -Double.infinity
        for k in 0..<count {
            let ideal = start + Double(k) * periodSeconds
            var wake = ideal + random.uniform() * jitter
            if lateEvery > 0, k > 0, k % lateEvery == 0 { wake += latePeriods * periodSeconds }
            wake = max(wake, lastWake + callbackSeconds)
            lastWake = wake
            let runs = !(xrunEvery > 0 && k > 0 && k % xrunEvery == 0)
            cycles.append(SimulatedCycle(frame: firstFrame &+ UInt32(truncatingIfNeeded: k * period), idealStart: ideal, wake: wake,
                                         runs: runs))
        }
        return cycles
    }

    /// The card's frame clock at `time` (seconds, the audio thread's clock), a real number of frames from `firstFrame`
    /// (the frame the sound of an event at `time` would be in with no delay at all).
    func frame(at time: Double, start: Double) -> Double {
        (time - start) * sampleRate * (1 + driftPPM * 1e-6)
    }
}

/// One cycle of a simulated server: its period's first frame, when the period ideally started and when the client's
/// callback woke for it (seconds, the audio thread's clock), and whether the client ran at all.
struct SimulatedCycle: Sendable {
    var frame: UInt32
    var idealStart: Double
    var wake: Double
    var runs: Bool
}
