import Ariel
import Enobarbus
import LiveHost
import Prospero
import Synchronization
import Testing

/// A frame clock whose latest period start the test sets: 48 kHz frames, fixed delay.
final class FixedFrameClock: LiveFrameClock, @unchecked Sendable {
    let periodStart: Double
    let periodFrame: UInt32
    let delay: Int
    init(periodStart: Double, periodFrame: UInt32, delay: Int) {
        self.periodStart = periodStart
        self.periodFrame = periodFrame
        self.delay = delay
    }
    func dueFrame(forArrival arrival: Double) -> UInt32? {
        InputTiming.dueFrame(arrival: arrival, referenceTime: periodStart, referenceFrame: periodFrame, sampleRate: 48_000, delay: delay)
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

    /// A period started at frame 50 000 at t = 10 s: an event 2.5 ms into it is at frame 50 120 and, with a
    /// 256-frame delay, due at 50 376, offset 120 of the next period; one 1 ms before it at 49 952.
    @Test func anArrivalMapsToItsFrameInThePeriodAndIsDueADelayLater() {
        #expect(InputTiming.arrivalFrame(arrival: 10.0025, referenceTime: 10, referenceFrame: 50_000, sampleRate: 48_000) == 50_120)
        #expect(InputTiming.dueFrame(arrival: 10.0025, referenceTime: 10, referenceFrame: 50_000, sampleRate: 48_000, delay: 256) == 50_376)
        #expect(InputTiming.arrivalFrame(arrival: 9.999, referenceTime: 10, referenceFrame: 50_000, sampleRate: 48_000) == 49_952)
        // Rounded to the nearer frame (1/48 000 s).
        #expect(InputTiming.arrivalFrame(arrival: 10 + 0.4 / 48_000, referenceTime: 10, referenceFrame: 7, sampleRate: 48_000) == 7)
        #expect(InputTiming.arrivalFrame(arrival: 10 + 0.6 / 48_000, referenceTime: 10, referenceFrame: 7, sampleRate: 48_000) == 8)
    }

    /// Two events 1 ms apart are 48 frames apart whichever period they are measured from (the
    /// reading thread's jitter does not move them), and the 32-bit frame clock's wrap is crossed.
    @Test func spacingIsKeptWhateverThePeriodAndAcrossTheWrap() {
        let a = InputTiming.dueFrame(arrival: 5.000, referenceTime: 4.999, referenceFrame: 100, sampleRate: 48_000, delay: 256)
        let b = InputTiming.dueFrame(arrival: 5.001, referenceTime: 4.999 + 256.0 / 48_000, referenceFrame: 356, sampleRate: 48_000, delay: 256)
        #expect(b &- a == 48)
        #expect(a == 100 + 48 + 256)
        let wrapped = InputTiming.arrivalFrame(arrival: 1, referenceTime: 1.01, referenceFrame: 100, sampleRate: 48_000)
        #expect(wrapped == UInt32.max - 379)  // 100 − 480 modulo 2³²
        #expect(InputTiming.arrivalFrame(arrival: 1.01, referenceTime: 1, referenceFrame: UInt32.max - 379, sampleRate: 48_000) == 100)
    }

    /// Arrivals implausibly far from the period (a clock gone wrong) are bounded; a NaN is the period's start.
    @Test func farArrivalsAreBounded() {
        let far = InputTiming.arrivalFrame(arrival: -1e9, referenceTime: 10, referenceFrame: 1_000_000, sampleRate: 48_000)
        #expect(far == 1_000_000 - UInt32(InputTiming.maximumDistance * 48_000))
        let ahead = InputTiming.arrivalFrame(arrival: 1e9, referenceTime: 10, referenceFrame: 0, sampleRate: 48_000)
        #expect(ahead == UInt32(InputTiming.maximumDistance * 48_000))
        #expect(InputTiming.arrivalFrame(arrival: .nan, referenceTime: 10, referenceFrame: 9, sampleRate: 48_000) == 9)
    }

    /// The hands instrument sends the MIDI a frame causes with the frame's due frame; what it sends on its
    /// own (the stop's note-offs) goes at once.
    @Test func handsMIDIIsDueAtTheFramesArrivalPlusTheDelay() throws {
        let output = DueMIDIOutput()
        let clock = FixedFrameClock(periodStart: 19.998, periodFrame: 96_000, delay: 256)
        let instrument = HandsLiveInstrument(performer: try HandsPerformer(settings: MIDIRouterSettings(), stabilizes: false),
                                             output: output, clock: nil, frameClock: clock)
        var assembler = OSCFrameAssembler()
        let arrival = 19.999  // 48 frames into the period
        let frames = assembler.ingest(.bundle(OSCBundle([.message(Self.hand(height: 9.5 / 11))])), at: arrival)
        #expect(!frames.isEmpty)
        instrument.receive(frames, at: arrival)
        let sent = output.sent.withLock { $0 }
        #expect(sent.contains { $0.0.status == 0x90 && $0.0.data2 > 0 }, "\(sent)")
        #expect(sent.allSatisfy { $0.1 == 96_000 + 48 + 256 }, "\(sent)")
        instrument.finish(at: 20.5)
        let after = output.sent.withLock { $0 }.dropFirst(sent.count)
        #expect(!after.isEmpty && after.allSatisfy { $0.1 == nil })
    }
}
