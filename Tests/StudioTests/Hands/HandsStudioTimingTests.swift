import Ariel
import InstrumentSettings
import LiveHost
import Studio
import Testing

/// Studio touches on the audio clock: a touch's MIDI (to `midi_out`) and its synth note are due at the
/// touch's arrival frame plus the input delay, so they play at that fixed latency whatever the control
/// thread's jitter, as the live commands' OSC input does. A fake clock stands in for JACK's.
@Suite("Hands studio timing")
struct HandsStudioTimingTests {
    static let rate = 48_000.0
    static let period = 256
    static let delay: UInt32 = 256   // --input-delay 1p at 256 frames

    /// JACK's clock as `JACKInputClock` maps it: the arrival's frame (seconds × rate) plus the delay.
    final class FakeFrameClock: LiveFrameClock, @unchecked Sendable {
        var asked = 0
        func dueFrame(forArrival arrival: Double) -> UInt32? {
            asked += 1
            return UInt32(truncatingIfNeeded: Int64((arrival * HandsStudioTimingTests.rate).rounded())) &+ HandsStudioTimingTests.delay
        }
    }

    struct Heard { var frame: UInt32; var status: UInt8; var note: UInt8; var velocity: UInt8 }

    /// Renders periods from `firstFrame` up to `lastFrame`, delivering each touch on the control side
    /// during the period in which it arrives (before the next one renders, as the server would), and
    /// returns the MIDI the driver wrote (absolute frames) and the first frame the synth sounded.
    func play(touches: [(frame: UInt32, phase: HandsTouchPhase, y: Double)], from firstFrame: UInt32, periods: Int,
              clock: FakeFrameClock?) throws -> (midi: [Heard], firstSound: UInt32?, queue: HandsMIDIQueue, latency: Int) {
        let queue = HandsMIDIQueue()
        var settings = HandsStudioSettings()
        settings.output = .both
        let hands = try HandsStudioController(settings: settings, midiOut: queue, frameClock: clock)
        let audio = HandsStudioAudio(host: hands.synth, midi: queue)
        audio.prepare(sampleRate: Self.rate, maximumFrames: Self.period)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: Self.period)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: Self.period)
        defer { left.deallocate(); right.deallocate() }
        var heard: [Heard] = []
        var firstSound: UInt32?
        var pending = touches[...]
        for k in 0..<periods {
            let start = firstFrame &+ UInt32(k * Self.period)
            // The control thread handled every touch that arrived before this period started.
            while let t = pending.first, Int64(t.frame) < Int64(start) {
                pending.removeFirst()
                hands.touch(client: "page", id: 0, phase: t.phase, x: 0.5, y: t.y, pressure: 0.5, at: Double(t.frame) / Self.rate)
            }
            left.update(repeating: 0, count: Self.period)
            right.update(repeating: 0, count: Self.period)
            audio.render(frameCount: Self.period, left: left, right: right, midi: UnsafeBufferPointer(start: nil, count: 0), blockStart: start)
            audio.drainMIDI(blockStart: start, frameCount: Self.period) { status, d1, d2, offset in
                heard.append(Heard(frame: start &+ UInt32(offset), status: status, note: d1, velocity: d2))
            }
            if firstSound == nil, let i = (0..<Self.period).first(where: { left[$0] != 0 }) { firstSound = start &+ UInt32(i) }
        }
        return (heard, firstSound, queue, audio.processingLatency)
    }

    @Test("note-ons and note-offs reach midi_out exactly the input delay after each touch's arrival, whatever its phase in the period")
    func fixedLatency() throws {
        let base: UInt32 = 48_000_000   // 1000 s into the server's frame clock
        // Arrivals at every phase of a period (the control thread's jitter): down, then up 1000 frames later.
        let jitters = [0, 1, 37, 128, 200, 255, 96, 17]
        var touches: [(frame: UInt32, phase: HandsTouchPhase, y: Double)] = []
        for (i, j) in jitters.enumerated() {
            let down = base &+ UInt32(3_000 * i + 512 + j)
            touches.append((down, .down, 0.1))
            touches.append((down &+ 1_000, .up, 0.1))
        }
        let clock = FakeFrameClock()
        let (midi, firstSound, queue, latency) = try play(touches: touches, from: base, periods: 110, clock: clock)
        let ons = midi.filter { $0.status & 0xF0 == 0x90 && $0.velocity > 0 }
        let offs = midi.filter { $0.status & 0xF0 == 0x80 || ($0.status & 0xF0 == 0x90 && $0.velocity == 0) }
        #expect(ons.count == jitters.count && offs.count == jitters.count, "\(midi.map { ($0.frame, $0.status, $0.note) })")
        // y 0.1 → zone 9 of C major pentatonic 48…72 → A4 (69).
        #expect(ons.allSatisfy { $0.note == 69 })
        let downs = touches.filter { $0.phase == .down }.map(\.frame), ups = touches.filter { $0.phase == .up }.map(\.frame)
        #expect(ons.map { $0.frame &- Self.delay } == downs)
        #expect(offs.map { $0.frame &- Self.delay } == ups)
        #expect(queue.lateCount == 0)
        // The built-in synth starts its note at the same frame, heard after its limiter's look-ahead.
        let expected = downs[0] &+ Self.delay &+ UInt32(latency)
        let sound = try #require(firstSound)
        #expect(sound >= expected && sound <= expected &+ 2, "first sound at \(sound), note due at \(downs[0] &+ Self.delay) + \(latency)")
    }

    @Test("without an audio clock a touch goes at the start of the next period (its latency jitters with its arrival)")
    func withoutClock() throws {
        let base: UInt32 = 960_000
        let touches: [(frame: UInt32, phase: HandsTouchPhase, y: Double)] = [(base &+ 300, .down, 0.5), (base &+ 2_000, .up, 0.5)]
        let (midi, _, _, _) = try play(touches: touches, from: base, periods: 12, clock: nil)
        // Delivered before the period starting at base + 512: sent at its frame 0.
        let on = midi.first { $0.status & 0xF0 == 0x90 && $0.velocity > 0 }
        #expect(on?.frame == base &+ 512 && on?.note == 60, "\(midi.map { ($0.frame, $0.status, $0.note) })")
    }

    @Test("a touch whose frame has passed plays at once and is counted late; one due later waits for its period")
    func lateAndWaiting() throws {
        let queue = HandsMIDIQueue()
        let noteOn = MIDIShortMessage(status: 0x90, data1: 60, data2: 100)!
        queue.send(noteOn, dueAt: 1_000)          // due before the period at 2000: late
        queue.send(noteOn, dueAt: 2_300)          // in the second period, offset 44
        var got: [(Int, UInt32)] = []
        queue.drain(blockStart: 2_000, frameCount: 256, horizon: 48_000) { _, at in got.append((at, 2_000)) }
        queue.drain(blockStart: 2_256, frameCount: 256, horizon: 48_000) { _, at in got.append((at, 2_256)) }
        #expect(got.map(\.0) == [0, 44] && got.map(\.1) == [2_000, 2_256])
        #expect(queue.lateCount == 1)
        // Across the 32-bit wrap of the frame clock: due 10 frames after it.
        queue.send(noteOn, dueAt: 10)
        var wrapped: [Int] = []
        queue.drain(blockStart: UInt32.max - 99, frameCount: 256, horizon: 48_000) { _, at in wrapped.append(at) }
        #expect(wrapped == [110])
    }
}
