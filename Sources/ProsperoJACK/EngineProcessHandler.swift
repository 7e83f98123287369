import Ariel
import LiveHost
import LiveHostPOSIX
import Synchronization
import Touchstone

/// Plays any `AudioEngine` live through JACK: MIDI-in events become `TimedMIDIMessage`s at their
/// frame offsets and go to `EngineHost.process`, so notes land on their exact sample. MIDI clock
/// (0xF8, Start, Stop, Continue, Song Position) goes to the live host's `MIDIClockFollower` instead,
/// timed by the frame count; its tempo is readable from any thread (`clock.bpm`, `clockBPM`).
///
/// Commands reach the engine through `host.send(_:)` from one control thread; those sent with a
/// due frame time (`host.send(_:dueAt:)`, live input stamped on arrival, see `JACKInputClock`)
/// are applied at that frame's offset in the period that contains it. On the audio thread
/// nothing allocates: the event buffer is sized at `init` (`maximumEventsPerPeriod`, excess counted
/// in `droppedEventCount`).
///
/// An engine that plays what it renders as MIDI (Hecate's face, `midiOutbox`) is drained after each
/// period into `midi_out`, every message at its frame's offset in the period; the client's final
/// period ends whatever still sounds (note-offs and CC 123).
public final class EngineProcessHandler<Engine: AudioEngine>: JACKProcessHandler, @unchecked Sendable {
    public let host: EngineHost<Engine>
    /// The output's levels per period, for live meters (Oberon's `LiveMeter` reads it on one other thread).
    public let meterTap = LiveMeterTap()
    /// Control changes from `midi_in` for MIDI learn on the control thread (they also reach the engine).
    public let controlChanges = JACKControlChangeTap()
    /// Rung by the audio thread in a period that brought control changes or clock and transport
    /// messages: a control thread that learns knobs or follows the clock sleeps on it (nothing polls).
    public let midiArrived = AudioThreadDoorbell()
    /// Events kept per period; more are dropped and counted.
    public let maximumEventsPerPeriod: Int

    private let events: UnsafeMutableBufferPointer<TimedMIDIMessage>
    /// The tempo of the MIDI clock on `midi_in`, the ``LiveClock`` a live adapter follows.
    public let clock = MIDIClockFollower()
    private var sampleRate = 48_000.0
    private var framesElapsed: Int64 = 0
    private let dropped = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private let latency: (Engine, Double) -> Int
    /// The engine's MIDI, written to `midi_out` after each period (nil: none).
    public let midiOutbox: EngineMIDIOutbox?
    private let midiRefused = Atomic<Int>(0)

    /// - Parameters:
    ///   - engine: the instrument; prepared here for a provisional spec, and again by JACK.
    ///   - commandCapacity: commands that can wait between two periods.
    ///   - latency: the engine's processing delay in frames at a sample rate (its limiter's look-ahead),
    ///     reported to JACK as port latency.
    ///   - midiOutbox: where the engine posts the MIDI it plays (its own outbox), sent on `midi_out`; nil for none.
    public init(engine: Engine, maximumEventsPerPeriod: Int = 1024, commandCapacity: Int = 1024,
                latency: @escaping (Engine, Double) -> Int = { _, _ in 0 }, midiOutbox: EngineMIDIOutbox? = nil) {
        self.latency = latency
        self.midiOutbox = midiOutbox
        self.maximumEventsPerPeriod = max(1, maximumEventsPerPeriod)
        host = EngineHost(
            engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 1024, channelCount: 2),
            commandCapacity: commandCapacity)
        events = .allocate(capacity: self.maximumEventsPerPeriod)
        events.initialize(repeating: TimedMIDIMessage(frameOffset: 0, message: MIDIShortMessage(status: 0xFE)!))
    }

    deinit { events.deallocate() }

    /// The tempo of the incoming MIDI clock in BPM, nil before one is known. Any thread.
    public var clockBPM: Double? { clock.bpm }

    /// MIDI events dropped because a period held more than `maximumEventsPerPeriod`.
    public var droppedEventCount: Int { dropped.load(ordering: .relaxed) }

    /// Messages of the engine's MIDI that `midi_out` refused (its period buffer full).
    public var refusedMIDIOutCount: Int { midiRefused.load(ordering: .relaxed) }

    /// Channel messages handed to the engine so far.
    public var receivedEventCount: Int { received.load(ordering: .relaxed) }

    /// Frames the engine's output lags its input beyond the period (see `init`'s `latency`).
    public var processingLatency: Int { latency(host.engine, sampleRate) }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
        // A block of no frames, here rather than in the first period: it instantiates the generic
        // metadata `EngineHost.process` needs on its first call (an allocation), renders nothing and
        // only applies commands already queued (prepare never runs beside a period).
        host.process(left: UnsafeMutableBufferPointer(start: nil, count: 0), right: UnsafeMutableBufferPointer(start: nil, count: 0))
    }

    public func process(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        var count = 0
        var droppedNow = 0
        controlChanges.collect(midiIn)
        var ring = false
        for event in midiIn {
            let status = event.status
            guard status >= 0x80, let message = MIDIShortMessage(status: status, data1: event.data1, data2: event.data2) else {
                continue
            }
            if status >= 0xF0 {
                // System messages: clock and transport to the clock receiver; the rest is not for a synth.
                let time = Double(framesElapsed + Int64(event.frame)) / sampleRate
                clock.receive(message, at: time)
                ring = true
                continue
            }
            if status & 0xF0 == 0xB0 { ring = true }
            guard count < maximumEventsPerPeriod else {
                droppedNow += 1
                continue
            }
            events[count] = TimedMIDIMessage(frameOffset: min(max(event.frame, 0), frameCount - 1), message: message)
            count += 1
        }
        if ring { midiArrived.ring() }
        if droppedNow > 0 { dropped.add(droppedNow, ordering: .relaxed) }
        if count > 0 { received.add(count, ordering: .relaxed) }
        host.process(
            left: UnsafeMutableBufferPointer(start: left, count: frameCount),
            right: UnsafeMutableBufferPointer(start: right, count: frameCount),
            midi: UnsafeBufferPointer(start: events.baseAddress, count: count),
            blockStart: midiIn.periodStartFrame)
        if let midiOutbox {
            var refused = 0
            midiOutbox.drain(lastFrames: frameCount) { message, offset in
                if !midiOut.send(message.status, message.data1, message.data2, atFrame: offset) { refused += 1 }
            }
            if refused > 0 { midiRefused.add(refused, ordering: .relaxed) }
        }
        meterTap.measure(left: UnsafeBufferPointer(start: left, count: frameCount), right: UnsafeBufferPointer(start: right, count: frameCount))
        framesElapsed += Int64(frameCount)
    }
}
