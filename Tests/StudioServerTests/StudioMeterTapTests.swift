import StudioServer
import Testing

/// The meter tap between the render thread and the panels: unseen, it keeps only the newest 43 ms of a backlog
/// (the rest given back to its ring in one step); shown, it meters all of it; left and right stay apart either way.
@Suite("Studio meter tap")
struct StudioMeterTapTests {
    /// Pushes `frames` frames of constant `left`, `right` in 256-frame periods, as the render thread does.
    func push(_ tap: StudioMeterTap, frames: Int, left: Float, right: Float) {
        let l = [Float](repeating: left, count: 256), r = [Float](repeating: right, count: 256)
        for _ in 0..<(frames / 256) {
            l.withUnsafeBufferPointer { lp in r.withUnsafeBufferPointer { rp in tap.push(left: lp.baseAddress!, right: rp.baseAddress!, frameCount: 256) } }
        }
    }

    /// A quarter second as the 4 Hz tick finds it: loud (0.9, 0.8) at first, then the newest 43 ms quieter (0.5, 0.1).
    func pushLoudThenQuiet(_ tap: StudioMeterTap) {
        push(tap, frames: 12_288 - StudioMeterTap.fftSize, left: 0.9, right: 0.8)
        push(tap, frames: StudioMeterTap.fftSize, left: 0.5, right: 0.1)
    }

    @Test("unseen: only the newest fftSize frames go through the meters, left and right not swapped")
    func unseenKeepsTheNewest() {
        let tap = StudioMeterTap()
        pushLoudThenQuiet(tap)
        tap.update(silentFor: 0.25, shown: false)
        let meters = tap.meters
        #expect(abs(meters[0] - 0.5) < 1e-6, "peak L \(meters[0]): the older, louder part was metered")
        #expect(abs(meters[1] - 0.1) < 1e-6, "peak R \(meters[1])")
        #expect(tap.scope.allSatisfy { abs($0 - 0.3) < 1e-6 }, "the scope is the newest window's mid signal")
        // Nothing left behind: the next tick without audio meters silence, not a stale part of the backlog.
        tap.update(silentFor: 1.0, shown: false)
        #expect(tap.scope.allSatisfy { $0 == 0 })
    }

    @Test("shown: every frame of the backlog goes through the meters")
    func shownMetersAll() {
        let tap = StudioMeterTap()
        pushLoudThenQuiet(tap)
        tap.update(silentFor: 0.25, shown: true)
        // The peak holds the loud part (0.5 s hold: 2 048 frames of 43 ms have not run it out).
        #expect(abs(tap.meters[0] - 0.9) < 1e-6)
        #expect(abs(tap.meters[1] - 0.8) < 1e-6)
    }

    @Test("a backlog larger than the ring drops whole periods: left and right stay apart")
    func overflowKeepsPairs() {
        let tap = StudioMeterTap()
        // 2 s of stereo at 48 kHz into a ring of 0.5 s at 96 kHz (131 072 samples): the excess is refused.
        push(tap, frames: 96_000, left: 0.7, right: 0)
        tap.update(silentFor: 0.25, shown: true)
        #expect(abs(tap.meters[0] - 0.7) < 1e-6)
        #expect(tap.meters[1] == 0, "a right channel that got a left sample")
    }
}
