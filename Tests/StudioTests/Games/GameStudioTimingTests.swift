import Ariel
import LiveHost
import Studio
import Testing

/// The games' touches are due at their sample, as the hands' and Hecate's input is (docs/live-parity.md):
/// a touch's sound starts exactly the input delay after the touch arrived, whatever the phase of the
/// period it arrived in, so the control thread's jitter never reaches the ear.
@Suite("Game studio timing")
struct GameStudioTimingTests {
    static let rate = 48_000.0
    static let period = 256
    static let delay: UInt32 = 256   // --input-delay 1p at 256 frames

    /// JACK's clock as `JACKInputClock` maps it: the arrival's frame (seconds × rate) plus the delay.
    final class FakeFrameClock: LiveFrameClock, @unchecked Sendable {
        func dueFrame(forArrival arrival: Double) -> UInt32? {
            UInt32(truncatingIfNeeded: Int64((arrival * GameStudioTimingTests.rate).rounded())) &+ GameStudioTimingTests.delay
        }
    }

    final class Clock: @unchecked Sendable { var now = 0.0 }

    /// Renders Touch for Music from frame `base` for `periods` periods, started at once; with a touch down
    /// (at the top of the pad: the music's level moves) arriving at frame `touchAt`, handed to the instrument
    /// before the period after its arrival renders, as the server does. Returns the left channel and the
    /// engine's look-ahead (its limiters delay everything by that many frames).
    func render(touchAt: UInt32?, from base: UInt32, periods: Int, frameClock: (any LiveFrameClock)?) throws -> (left: [Float], latency: Int) {
        let clock = Clock()
        clock.now = Double(base) / Self.rate
        let game = TouchStudioInstrument(seed: 1, now: { clock.now }, frameClock: frameClock)
        let audio = try #require(game.audio as? GameStudioAudio)
        audio.prepare(sampleRate: Self.rate, maximumFrames: Self.period)
        _ = try game.apply(action: "touch.start", value: .null)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: Self.period)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: Self.period)
        defer { left.deallocate(); right.deallocate() }
        var out: [Float] = []
        var pending = touchAt
        for k in 0..<periods {
            let start = base &+ UInt32(k * Self.period)
            if let t = pending, t < start {
                pending = nil
                clock.now = Double(t) / Self.rate
                _ = try game.touch(StudioTouch(id: 0, phase: .down, x: 0.5, y: 0.05), client: "page")
            }
            clock.now = Double(start) / Self.rate
            left.update(repeating: 0, count: Self.period)
            right.update(repeating: 0, count: Self.period)
            audio.render(frameCount: Self.period, left: left, right: right, midi: UnsafeBufferPointer(start: nil, count: 0), blockStart: start)
            out.append(contentsOf: UnsafeBufferPointer(start: left, count: Self.period))
        }
        #expect(audio.host.lateCommandCount == 0)
        return (out, audio.processingLatency)
    }

    /// The first sample that differs from the same game untouched. The engine's look-ahead limiters begin to
    /// move their gain up to their look-ahead before the change itself is heard, so the change shows a fixed
    /// number of frames (0…look-ahead) after it is applied: fixed, whatever the period's phase, is the point.
    func firstChange(_ touched: [Float], _ untouched: [Float]) throws -> Int {
        try #require(touched.indices.first { touched[$0] != untouched[$0] }, "the touch changed nothing")
    }

    @Test("a touch's sound starts the input delay after its arrival, at every phase of the period (a constant offset)")
    func touchesAreDueAtTheirSample() throws {
        let base: UInt32 = 48_000_000   // 1000 s into the server's frame clock
        let periods = 24
        let (untouched, latency) = try render(touchAt: nil, from: base, periods: periods, frameClock: FakeFrameClock())
        #expect(untouched.contains { $0 != 0 }, "the game's music plays")
        var offsets: [Int] = []
        for jitter in [0, 1, 37, 128, 200, 255] {
            let arrival = base &+ UInt32(8 * Self.period + jitter)
            let touched = try render(touchAt: arrival, from: base, periods: periods, frameClock: FakeFrameClock()).left
            let due = Int(arrival &+ Self.delay &- base)
            offsets.append(try firstChange(touched, untouched) - due)
        }
        #expect(Set(offsets).count == 1, "the touch was heard at a different place for each phase: \(offsets) frames after it was due")
        #expect(offsets.allSatisfy { (0...latency).contains($0) }, "heard \(offsets) frames after it was due (look-ahead \(latency))")
    }

    @Test("without JACK's clock a touch applies at the top of the next block (the browser's and the offline driver's case)")
    func withoutAFrameClockTheNextBlock() throws {
        let base: UInt32 = 48_000_000
        let (untouched, latency) = try render(touchAt: nil, from: base, periods: 16, frameClock: nil)
        var heard: [Int] = []
        for jitter in [10, 100, 250] {
            let arrival = base &+ UInt32(4 * Self.period + jitter)
            heard.append(try firstChange(try render(touchAt: arrival, from: base, periods: 16, frameClock: nil).left, untouched))
        }
        #expect(Set(heard).count == 1, "quantised to the block: \(heard)")
        #expect(heard.allSatisfy { (5 * Self.period...5 * Self.period + latency).contains($0) }, "heard at \(heard)")
    }
}
