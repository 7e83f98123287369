import Ariel
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import Studio
import Synchronization

/// The studio's sound through JACK: renders the active instrument's engine (one existential call per
/// period), writes the MIDI it wants to send to `midi_out`, and copies the output into the meter tap.
/// The engines are fixed at start; `select` switches which one renders with one atomic store.
/// MIDI arriving at `midi_in` (channel messages, at their frame offsets) goes to the active engine's
/// `render(frameCount:left:right:midi:blockStart:)`, so an instrument that plays MIDI (HiSynth) is played by it;
/// MIDI clock goes to ``clock``, the tempo the instruments' live adapters follow (as `prospero hecate`'s does).
/// When another engine takes over, every note the previous one left sounding on `midi_out` ends there
/// (note-offs, CC 123): an engine that is not rendered cannot end its notes itself.
public final class StudioJACKDriver: JACKProcessHandler, StudioAudioOutput, @unchecked Sendable {
    public let engines: [any StudioAudioEngine]
    public let tap: StudioMeterTap
    /// Control changes from `midi_in` (MIDI learn and learned controllers), handed to
    /// ``deliverControlChanges(to:stop:)``'s thread as they arrive.
    public let controlChanges = JACKControlChangeTap()
    /// Rung by the audio thread in a period that brought control changes.
    private let arrived = AudioThreadDoorbell()
    private let active = Atomic<Int>(-1)
    /// Channel messages of the current period, sized once (further messages in one period are dropped).
    private let midiEvents: UnsafeMutableBufferPointer<TimedMIDIMessage>
    /// MIDI-in messages dropped because a period brought more than the buffer holds.
    public let droppedMIDI = Atomic<Int>(0)
    public static let maximumMIDIEventsPerPeriod = 512
    /// The MIDI clock on `midi_in`, timed by the frames rendered (the registry gives it to the instruments).
    public let clock: MIDIClockFollower
    private var framesElapsed: Int64 = 0
    private var sampleRate = 48_000.0
    /// Audio thread: the engine rendered in the last period (−1: none).
    private var rendered = -1

    public init(engines: [any StudioAudioEngine], active: Int?, tap: StudioMeterTap, clock: MIDIClockFollower = MIDIClockFollower()) {
        self.engines = engines
        self.tap = tap
        self.clock = clock
        self.active.store(active ?? -1, ordering: .relaxed)
        midiEvents = .allocate(capacity: Self.maximumMIDIEventsPerPeriod)
        let placeholder = TimedMIDIMessage(frameOffset: 0, message: MIDIShortMessage(status: 0x80, data1: 0, data2: 0)!)
        midiEvents.initialize(repeating: placeholder)
    }

    deinit { midiEvents.deallocate() }

    /// Which engine renders (nil: silence). Any thread.
    public func select(_ index: Int?) { active.store(index ?? -1, ordering: .relaxed) }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        for engine in engines { engine.prepare(sampleRate: sampleRate, maximumFrames: maximumFrames) }
        tap.noteSampleRate(sampleRate)
    }

    public func process(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput) {
        controlChanges.collect(midiIn)
        for event in midiIn where event.status & 0xF0 == 0xB0 {
            arrived.ring()
            break
        }
        for event in midiIn where event.status >= 0xF0 {
            guard let message = MIDIShortMessage(status: event.status, data1: event.data1, data2: event.data2) else { continue }
            clock.receive(message, at: Double(framesElapsed + Int64(event.frame)) / sampleRate)
        }
        defer { framesElapsed += Int64(frameCount) }
        let index = active.load(ordering: .relaxed)
        if index != rendered {
            if rendered >= 0 && rendered < engines.count {
                midiOut.releaseAllSoundingNotes(atFrame: 0)
                engines[rendered].midiWasReleased()
            }
            rendered = index
        }
        if index >= 0 && index < engines.count {
            let engine = engines[index]
            var count = 0
            var dropped = 0
            for event in midiIn {
                // Channel messages only (system messages are no instrument's business here).
                guard event.status >= 0x80, event.status < 0xF0,
                      let message = MIDIShortMessage(status: event.status, data1: event.data1, data2: event.data2) else { continue }
                guard count < midiEvents.count else {
                    dropped += 1
                    continue
                }
                midiEvents[count] = TimedMIDIMessage(frameOffset: min(max(event.frame, 0), max(frameCount - 1, 0)), message: message)
                count += 1
            }
            if dropped > 0 { droppedMIDI.add(dropped, ordering: .relaxed) }
            // The period's start frame places what was sent with a due frame (studio touches: arrival + --input-delay).
            let start = midiIn.periodStartFrame
            engine.render(frameCount: frameCount, left: left, right: right,
                          midi: UnsafeBufferPointer(start: midiEvents.baseAddress, count: count), blockStart: start)
            engine.drainMIDI(blockStart: start, frameCount: frameCount) { status, d1, d2, at in
                // Program change and channel pressure carry one data byte.
                switch MIDIShortMessage.dataByteCount(forStatus: status) {
                case 2: _ = midiOut.send(status, d1, d2, atFrame: at)
                case 1: _ = midiOut.send(status, d1, atFrame: at)
                default: _ = midiOut.send(status, atFrame: at)
                }
            }
        }
        tap.push(left: left, right: right, frameCount: frameCount)
    }

    public func stopping(midiOut: inout JACKMIDIOutput) {}

    /// Hands every control change from `midi_in` to `receive` as it arrives (a thread that sleeps until
    /// the audio thread rings: nothing polls), until `stop`; the thread's end is signalled on the returned stop.
    public func deliverControlChanges(to receive: @escaping @Sendable (MIDIMessage) -> Void, stop: LiveStop) -> LiveStop {
        let ended = LiveStop()
        let arrived = self.arrived
        stop.onRequest { arrived.ring() }
        let thread = Thread { [controlChanges] in
            while !stop.isRequested {
                arrived.wait()
                controlChanges.drain(receive)
            }
            ended.request(.requested)
        }
        thread.name = "studio MIDI in"
        thread.start()
        return ended
    }

    public var processingLatency: Int {
        let index = active.load(ordering: .relaxed)
        return index >= 0 && index < engines.count ? engines[index].processingLatency : 0
    }
}
