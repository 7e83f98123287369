import Ariel
import Synchronization
import Touchstone

/// What renders audio next to a ``QueuedMIDIHandler``: an instrument fed the same MIDI that goes
/// out of the port. ``EngineHostRenderer`` adapts any `AudioEngine` (Prospero's built-in synth).
public protocol QueuedMIDIAudioRenderer: AnyObject {
    /// Sizes the engine; not called while `render` runs. May allocate.
    func prepare(sampleRate: Double, maximumFrames: Int)
    /// Renders one period with `midi` applied at its frame offsets. Real-time rules apply.
    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
                midi: UnsafeBufferPointer<TimedMIDIMessage>)
    /// Frames by which the audio lags the MIDI (a limiter's look-ahead); read after `prepare`.
    var processingLatency: Int { get }
}

extension QueuedMIDIAudioRenderer {
    /// By default, none.
    public var processingLatency: Int { 0 }
}

/// Any `AudioEngine` behind an `EngineHost`, as the audio side of a ``QueuedMIDIHandler``.
public final class EngineHostRenderer<Engine: AudioEngine>: QueuedMIDIAudioRenderer {
    public let host: EngineHost<Engine>
    private let latency: (Engine, Double) -> Int
    private var sampleRate: Double

    /// - Parameter latency: the engine's processing delay in frames at a sample rate (its limiter's
    ///   look-ahead), reported to JACK as port latency.
    public init(engine: Engine, sampleRate: Double = 48_000, maximumFrames: Int = 4096,
                latency: @escaping (Engine, Double) -> Int = { _, _ in 0 }) {
        host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: maximumFrames, channelCount: 2))
        self.latency = latency
        self.sampleRate = sampleRate
    }

    public var processingLatency: Int { latency(host.engine, sampleRate) }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
    }

    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>) {
        host.process(left: left, right: right, midi: midi)
    }
}

/// A JACK process handler whose MIDI comes from a control thread through a lock-free ring:
/// a router (hands, faces, a sequencer) pushes messages with ``send(_:)`` or, stamped with the
/// frame time they are due at, ``send(_:dueAt:)``; every period the handler writes what is due to
/// `midi_out` (with `sendsMIDI`) and plays it on the optional audio renderer, both at the due
/// frame's offset (``FrameSchedule``; untimed and late messages at the start of the period, late
/// ones counted in ``lateCount``). Messages keep their send order; one due later holds back those
/// sent after it. A full ring drops the message and counts it (``droppedCount``); nothing blocks.
///
/// MIDI clock and transport bytes on `midi_in` (F8, FA, FB, FC) travel back through a second
/// ring with their absolute frame time, for a `MIDIClockReceiver` on the control thread
/// (``drainClock(_:)``).
///
/// One producer thread (``send(_:)``), one consumer thread (``drainClock(_:)``).
public final class QueuedMIDIHandler: JACKProcessHandler, @unchecked Sendable {
    /// A clock or transport message from `midi_in` and when it arrived.
    public struct ClockEvent: Sendable {
        /// Frames since the handler's first period.
        public var frame: Int64
        public var message: MIDIShortMessage
        /// The sample rate the frame counts at.
        public var sampleRate: Double
        /// Seconds since the handler's first period.
        public var seconds: Double { Double(frame) / sampleRate }
    }

    /// A message and the frame time it is due at (nil: the next period's start).
    struct Scheduled {
        var message: MIDIShortMessage
        var due: UInt32?
    }

    public let sendsMIDI: Bool
    public let audio: (any QueuedMIDIAudioRenderer)?
    private let outgoing: SPSCRingBuffer<Scheduled>
    /// The oldest message, taken from the ring but due after the current period.
    private var waiting: Scheduled?
    private let late = Atomic<Int>(0)
    private let clock: SPSCRingBuffer<ClockEvent>
    /// Control changes from `midi_in` for MIDI learn on the control thread.
    public let controlChanges = JACKControlChangeTap()
    private let scratch: UnsafeMutablePointer<TimedMIDIMessage>
    private let scratchCapacity: Int
    private var sampleRate = 48_000.0
    private var framesSoFar: Int64 = 0

    /// - Parameters:
    ///   - capacity: messages that can wait between two periods (a power of two is used).
    ///   - sendsMIDI: write the messages to the `midi_out` port.
    ///   - audio: also play them on this renderer (nil: silent audio outputs).
    public init(capacity: Int = 4096, sendsMIDI: Bool = true, audio: (any QueuedMIDIAudioRenderer)? = nil) {
        outgoing = SPSCRingBuffer(minimumCapacity: capacity)
        clock = SPSCRingBuffer(minimumCapacity: 1024)
        scratchCapacity = outgoing.capacity
        scratch = .allocate(capacity: scratchCapacity)
        self.sendsMIDI = sendsMIDI
        self.audio = audio
    }

    deinit { scratch.deallocate() }

    // MARK: Control thread

    /// Queues a message for the next period. False (and counted) when the ring is full.
    @discardableResult
    public func send(_ message: MIDIShortMessage) -> Bool { outgoing.push(Scheduled(message: message, due: nil)) }

    /// Queues a message due at JACK frame time `due` (nil: the next period). False (and counted) when the ring is full.
    @discardableResult
    public func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool {
        outgoing.push(Scheduled(message: message, due: due))
    }

    /// Timed messages sent at offset 0 because their frame had passed (or was implausibly far ahead).
    public var lateCount: Int { late.load(ordering: .relaxed) }

    /// The audio renderer's processing delay (its limiter's look-ahead), reported to JACK.
    public var processingLatency: Int { audio?.processingLatency ?? 0 }

    /// Messages refused because the ring was full.
    public var droppedCount: Int { outgoing.droppedCount }

    /// Clock messages lost because the control thread did not drain them in time.
    public var droppedClockCount: Int { clock.droppedCount }

    /// Hands every clock or transport message received since the last call to `body`, in order.
    @discardableResult
    public func drainClock(_ body: (ClockEvent) -> Void) -> Int { clock.drain { body($0) } }

    // MARK: JACK

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        audio?.prepare(sampleRate: sampleRate, maximumFrames: maximumFrames)
    }

    public func process(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput) {
        controlChanges.collect(midiIn)
        for event in midiIn {
            switch event.bytes.first {
            case 0xF8?, 0xFA?, 0xFB?, 0xFC?:
                if let m = MIDIShortMessage(status: event.bytes[0]) {
                    _ = clock.push(ClockEvent(frame: framesSoFar + Int64(event.frame), message: m, sampleRate: sampleRate))
                }
            default:
                break
            }
        }
        var count = 0
        var cursor = 0
        var lateNow = 0
        let horizon = Int(sampleRate)
        while count < scratchCapacity {
            if waiting == nil { waiting = outgoing.pop() }
            guard let next = waiting else { break }
            var offset = 0
            if let due = next.due, let start = midiIn.periodStartFrame {
                let placement = FrameSchedule.place(due: due, blockStart: start, frameCount: frameCount, horizon: horizon)
                if case .later = placement { break }  // it and everything after it wait
                switch placement {
                case .inBlock(let at): offset = at
                case .late, .beyondHorizon: lateNow += 1
                case .later: break
                }
            }
            waiting = nil
            // Send order is kept: never before an earlier message.
            cursor = max(cursor, offset)
            let m = next.message
            if sendsMIDI {
                switch m.count {
                case 3: midiOut.send(m.status, m.data1, m.data2, atFrame: cursor)
                case 2: midiOut.send(m.status, m.data1, atFrame: cursor)
                default: midiOut.send(m.status, atFrame: cursor)
                }
            }
            scratch[count] = TimedMIDIMessage(frameOffset: cursor, message: m)
            count += 1
        }
        if lateNow > 0 { late.add(lateNow, ordering: .relaxed) }
        if let audio {
            audio.render(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                         right: UnsafeMutableBufferPointer(start: right, count: frameCount),
                         midi: UnsafeBufferPointer(start: scratch, count: count))
        }
        framesSoFar += Int64(frameCount)
    }
}
