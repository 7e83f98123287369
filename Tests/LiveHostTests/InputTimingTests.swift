import Ariel
import Enobarbus
import LiveHost
import Prospero
import Synchronization
import Testing

/// A frame clock whose "now" the test sets: 48 kHz frames, fixed delay.
final class FixedFrameClock: LiveFrameClock, @unchecked Sendable {
    let now: Double
    let nowFrame: UInt32
    let delay: Int
    init(now: Double, nowFrame: UInt32, delay: Int) {
        self.now = now
        self.nowFrame = nowFrame
        self.delay = delay
    }
    func dueFrame(forArrival arrival: Double) -> UInt32? {
        InputTiming.dueFrame(arrival: arrival, now: now, nowFrame: nowFrame, sampleRate: 48_000, delay: delay)
    }
}

/// A MIDI output that keeps each message with its due frame.
final class DueMIDIOutput: LiveMIDIOutput, @unchecked Sendable {
    let sent = Mutex<[(MIDIShortMessage, UInt32?)]>([])
    func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool {
        sent.withLock { $0.append((message, due)) }
        return true
    }
}

@Suite struct InputTimingTests {
    /// `/prospero/hand 0 right 0.95` + 21 landmarks of an open right hand, palm centre at `height`, x 0.4.
    static func hand(height: Double) -> OSCMessage {
        let cx = 0.4, cy = 1 - height
        var p = [(Double, Double)](repeating: (0, 0), count: 21)
        p[0] = (cx, cy + 0.06)
        for (f, dx) in [(1, -0.045), (2, -0.015), (3, 0.015), (4, 0.045)] {
            let m = 1 + 4 * f
            p[m] = (cx + dx, cy - 0.015); p[m + 1] = (cx + dx, cy - 0.045)
            p[m + 2] = (cx + dx, cy - 0.06); p[m + 3] = (cx + dx, cy - 0.085)
        }
        p[1] = (cx - 0.03, cy + 0.04); p[2] = (cx - 0.05, cy + 0.02); p[3] = (cx - 0.07, cy); p[4] = (cx - 0.11, cy - 0.01)
        var arguments: [OSCArgument] = [.int32(0), .string("right"), .float32(0.95)]
        for (x, y) in p { arguments += [.float32(Float(x)), .float32(Float(y)), .float32(0)] }
        return OSCMessage("/prospero/hand", arguments)
    }

    /// An event 2.5 ms old at 48 kHz arrived 120 frames before now; with a 256-frame delay it is due 136 after now.
    @Test func anArrivalMapsToItsFrameAndIsDueADelayLater() {
        #expect(InputTiming.arrivalFrame(arrival: 9.9975, now: 10, nowFrame: 50_000, sampleRate: 48_000) == 49_880)
        #expect(InputTiming.dueFrame(arrival: 9.9975, now: 10, nowFrame: 50_000, sampleRate: 48_000, delay: 256) == 50_136)
        // 1/48000 s resolution: an arrival 10.4 µs (0.5 frame) old rounds to the nearer frame.
        #expect(InputTiming.arrivalFrame(arrival: 10 - 0.4 / 48_000, now: 10, nowFrame: 7, sampleRate: 48_000) == 7)
        #expect(InputTiming.arrivalFrame(arrival: 10 - 0.6 / 48_000, now: 10, nowFrame: 7, sampleRate: 48_000) == 6)
    }

    /// Two events 1 ms apart stay 48 frames apart whenever the mapping is read (jitter of the reading
    /// thread does not move them), and the frame clock's wrap is crossed.
    @Test func spacingIsKeptWhateverTheReadingTimeAndAcrossTheWrap() {
        let a = InputTiming.dueFrame(arrival: 5.000, now: 5.003, nowFrame: 100, sampleRate: 48_000, delay: 256)
        let b = InputTiming.dueFrame(arrival: 5.001, now: 5.0042, nowFrame: 100 + 58, sampleRate: 48_000, delay: 256)
        #expect(b &- a == 48)
        #expect(a == UInt32(100 + 256) &- 144)
        let wrapped = InputTiming.arrivalFrame(arrival: 1, now: 1.01, nowFrame: 100, sampleRate: 48_000)
        #expect(wrapped == UInt32.max - 379)  // 100 − 480 modulo 2³²
    }

    /// An arrival stamped after the clock read counts as now; a very old one is bounded (it is late anyway).
    @Test func futureArrivalsAreNowAndAncientOnesAreBounded() {
        #expect(InputTiming.arrivalFrame(arrival: 11, now: 10, nowFrame: 1_000, sampleRate: 48_000) == 1_000)
        let old = InputTiming.arrivalFrame(arrival: -1e9, now: 10, nowFrame: 1_000_000, sampleRate: 48_000)
        #expect(old == 1_000_000 - UInt32(InputTiming.maximumAge * 48_000))
        #expect(InputTiming.arrivalFrame(arrival: .nan, now: 10, nowFrame: 9, sampleRate: 48_000) == 9)
    }

    /// The hands instrument sends the MIDI a frame causes with the frame's due frame; what it sends on its
    /// own (the stop's note-offs) goes at once.
    @Test func handsMIDIIsDueAtTheFramesArrivalPlusTheDelay() throws {
        let output = DueMIDIOutput()
        let clock = FixedFrameClock(now: 20, nowFrame: 96_000, delay: 256)
        let instrument = HandsLiveInstrument(performer: try HandsPerformer(settings: MIDIRouterSettings(), stabilizes: false),
                                             output: output, clock: nil, frameClock: clock)
        var assembler = OSCFrameAssembler()
        let arrival = 19.999  // 48 frames before the clock's now
        let frames = assembler.ingest(.bundle(OSCBundle([.message(Self.hand(height: 9.5 / 11))])), at: arrival)
        #expect(!frames.isEmpty)
        instrument.receive(frames, at: arrival)
        let sent = output.sent.withLock { $0 }
        #expect(sent.contains { $0.0.status == 0x90 && $0.0.data2 > 0 }, "\(sent)")
        #expect(sent.allSatisfy { $0.1 == 96_000 - 48 + 256 }, "\(sent)")
        instrument.finish(at: 20.5)
        let after = output.sent.withLock { $0 }.dropFirst(sent.count)
        #expect(!after.isEmpty && after.allSatisfy { $0.1 == nil })
    }
}
