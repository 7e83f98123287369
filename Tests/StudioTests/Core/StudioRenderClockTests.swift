import Studio
import ProsperoTestSupport
import Testing

/// The browser-audio render clock driven by a fake clock: the loop sleeps exactly as long as it is told.
@Suite("Studio render clock", .ownThread)
struct StudioRenderClockTests {
    /// Runs the render loop from `start` for `seconds` of fake time; the clock after it.
    func run(_ clock: inout StudioRenderClock, from start: Double, seconds: Double) {
        var now = start
        while now < start + seconds {
            switch clock.poll(now: now) {
            case .render: clock.rendered(at: now)
            case .wait(let s):
                #expect(s > 0)
                now += s
            }
        }
    }

    @Test func rendersInRealTimeAtTheNominalRate() {
        var clock = StudioRenderClock(sampleRate: 48_000, blockFrames: 256, start: 100)
        run(&clock, from: 100, seconds: 10 - 128.0 / 48_000)
        // Blocks due at 100 + k · 256/48000 s for k = 0…1874 lie before 110 s − half a block: 1875 blocks, 480 000 frames.
        #expect(clock.blocks == 1875)
        #expect(clock.frames == 480_000)
        #expect(clock.lateRestarts == 0)
    }

    @Test func theRatioChangesTheRateWithinItsBounds() {
        var fast = StudioRenderClock(sampleRate: 48_000, blockFrames: 128, start: 0)
        fast.ratio = 1.0005
        run(&fast, from: 0, seconds: 100)
        // 48 000 · 1.0005 · 100 = 4 802 400 frames (± one block).
        #expect(abs(fast.frames - 4_802_400) <= 128)
        var clamped = StudioRenderClock(sampleRate: 48_000, blockFrames: 128, start: 0)
        clamped.ratio = 1.01
        #expect(clamped.ratio == 1.0005)
        clamped.ratio = 0.5
        #expect(clamped.ratio == 0.9995)
        clamped.ratio = .nan
        #expect(clamped.ratio == 1)
    }

    @Test func aShortDelayIsCaughtUpAndAStallRestartsTheSchedule() {
        let block = 256.0 / 48_000
        var clock = StudioRenderClock(sampleRate: 48_000, blockFrames: 256, start: 0)
        #expect(clock.poll(now: 0) == .render)
        clock.rendered(at: 0)
        #expect(clock.poll(now: 0.001) == .wait(block - 0.001))
        // 10 ms late (under the 50 ms limit): the next block is due on the old schedule, so two render at once.
        clock.rendered(at: block + 0.010)
        #expect(clock.due == 2 * block)
        #expect(clock.poll(now: block + 0.010) == .render)
        #expect(clock.lateRestarts == 0)
        // 200 ms late: no burst of 37 blocks; the schedule restarts one block after now.
        let late = 2 * block + 0.200
        clock.rendered(at: late)
        #expect(clock.lateRestarts == 1)
        #expect(abs(clock.due - (late + block)) < 1e-12)
        #expect(clock.poll(now: late) == .wait(clock.due - late))
    }
}
