import Foundation
import Studio
import Testing

/// The browser-audio clock follower, simulated: the page's buffer fills at (server rate · ratio − page
/// rate), the page smooths the fill it reports (0.5 s time constant, as js/audio-worklet.js does) and
/// reports twice a second (as js/browser-audio.js does, `REPORT_MS`); the figures below hold at 4 Hz too.
@Suite("Studio rate steering")
struct StudioRateSteeringTests {
    struct Run {
        var fills: [Double] = []    // true fill (s) at each report
        var ratios: [Double] = []
    }

    /// - Parameters: `mismatch`: the server's clock runs fast by this fraction (4e-4 = +0.04 %);
    ///   `jitter`: half-width of a uniform error on each fill reading (s), deterministic.
    func simulate(mismatch: Double, seconds: Double, startFill: Double = 0.030, jitter: Double = 0,
                  step: Double = 0.5) -> (Run, StudioRateSteering) {
        var steering = StudioRateSteering()
        let target = 0.030
        var fill = startFill, smoothed = startFill, ratio = 1.0
        let alpha = 1 - exp(-step / 0.5)
        var seed: UInt64 = 12345
        var run = Run()
        var t = 0.0
        while t < seconds {
            fill += ((1 + mismatch) * ratio - 1) * step
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = jitter * (Double(seed >> 11) / Double(1 << 53) * 2 - 1)
            smoothed += (fill + noise - smoothed) * alpha
            t += step
            ratio = steering.update(fill: smoothed, target: target, at: t)
            run.fills.append(fill)
            run.ratios.append(ratio)
        }
        return (run, steering)
    }

    @Test(arguments: [(0.0004, 0.5), (-0.0004, 0.5), (0.0004, 0.25), (-0.0004, 0.25)])
    func convergesToTheTargetUnderAClockMismatch(mismatch: Double, step: Double) {
        let (run, steering) = simulate(mismatch: mismatch, seconds: 600, step: step)
        // Bounded at every step: ±0.05 %.
        #expect(run.ratios.allSatisfy { abs($0 - 1) <= 0.0005 + 1e-15 })
        // The fill never strays far enough to underrun a 30 ms buffer or to overflow a 60 ms one.
        #expect(run.fills.allSatisfy { abs($0 - 0.030) < 0.010 })
        // After 400 s: on target within 0.1 ms, and the ratio cancels the mismatch: (1 + e)·ratio = 1.
        let settled = run.fills.suffix(Int(200 / step))
        #expect(settled.allSatisfy { abs($0 - 0.030) < 0.000_1 })
        #expect(abs((1 + mismatch) * steering.ratio - 1) < 1e-6)
    }

    @Test func aMismatchStepMakesOneHumpWithoutOscillation() {
        // Critically damped: the error rises, then decays to zero without crossing it (0.05 ms dead band).
        for mismatch in [0.0004, -0.0004] {
            let (run, _) = simulate(mismatch: mismatch, seconds: 900)
            let errors = run.fills.map { $0 - 0.030 }.filter { abs($0) > 0.000_05 }
            let crossings = zip(errors, errors.dropFirst()).filter { ($0 > 0) != ($1 > 0) }.count
            #expect(crossings == 0)
            // The ratio approaches its final value monotonically once the proportional kick is over.
            let final = run.ratios.last!
            let tail = run.ratios.suffix(from: run.ratios.count / 2).map { abs($0 - final) }
            #expect(zip(tail, tail.dropFirst()).allSatisfy { $1 <= $0 + 1e-9 })
        }
    }

    @Test func noDriftOverAnHourAndNoWobbleFromJitteryReports() {
        // ±1.5 ms of reading jitter (a render quantum and network arrival), one hour.
        let (run, steering) = simulate(mismatch: 0.0003, seconds: 3600, jitter: 0.0015)
        let lastHalfHour = run.fills.suffix(3600)
        let mean = lastHalfHour.reduce(0, +) / Double(lastHalfHour.count)
        #expect(abs(mean - 0.030) < 0.000_2)
        #expect(lastHalfHour.allSatisfy { abs($0 - 0.030) < 0.003 })
        // Pitch wobble: the ratio's spread stays under 0.005 % (0.09 cents).
        let ratios = run.ratios.suffix(3600)
        let r = ratios.reduce(0, +) / Double(ratios.count)
        let sd = (ratios.map { ($0 - r) * ($0 - r) }.reduce(0, +) / Double(ratios.count)).squareRoot()
        #expect(sd < 0.000_05)
        #expect(abs((1.0003) * steering.ratio - 1) < 0.000_05)
    }

    @Test func extremeAndInvalidReportsStayBounded() {
        var s = StudioRateSteering()
        for i in 0..<1_000 {
            let r = s.update(fill: i % 2 == 0 ? 1.0 : 0, target: 0.03, at: Double(i) * 0.25)
            #expect(abs(r - 1) <= 0.0005 + 1e-15)
        }
        #expect(abs(s.integral) <= 0.0005)
        let before = s.ratio
        #expect(s.update(fill: .nan, target: 0.03, at: 999) == before)
        #expect(s.update(fill: 0.03, target: .infinity, at: 999) == before)
        // Far above target for long: full −0.05 %, and the integral does not wind up past the limit.
        var high = StudioRateSteering()
        for i in 0..<4_000 { high.update(fill: 0.2, target: 0.03, at: Double(i) * 0.25) }
        #expect(high.ratio == 1 - 0.0005)
        #expect(abs(high.integral) < 0.000_01)
        // Back on target, it is at nominal at once instead of staying pinned by a wound-up integral.
        high.update(fill: 0.03, target: 0.03, at: 1_000.25)
        #expect(abs(high.ratio - 1) < 0.000_01)
    }

    @Test func pauseKeepsTheLearntMismatchOnly() {
        let (_, settled) = simulate(mismatch: 0.0004, seconds: 600)
        var s = settled
        s.pause()
        #expect(abs(s.ratio - (1 + s.integral)) < 1e-15)
        #expect(abs(s.ratio * 1.0004 - 1) < 1e-5)
        // A gap longer than the step limit is not integrated.
        let integral = s.integral
        s.update(fill: 0.05, target: 0.03, at: 10_000)
        #expect(s.integral == integral)
    }
}
