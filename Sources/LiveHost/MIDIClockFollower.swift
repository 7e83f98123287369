import Ariel
import Synchronization

/// The MIDI clock arriving at an audio edge's MIDI input as the tempo a live adapter follows: the
/// audio thread hands it every system message of a period with its time on the audio clock (frames
/// elapsed ÷ sample rate), an Ariel ``MIDIClockReceiver`` measures the tempo, and the host's loop reads
/// ``bpm``, the ``transport`` (Start, Stop, Continue) and ``clockCount``. One per audio edge, so every
/// front end's adapter follows the clock the same way (the CLI's engine handler and the studio's JACK
/// driver both feed one).
///
/// ``receive(_:at:)`` runs on the audio thread under the render rules: the receiver's storage is
/// allocated in `init`, the tempo and the transport cross threads as atomic words.
public final class MIDIClockFollower: LiveClock, @unchecked Sendable {
    /// Mutated on the audio thread only.
    private var receiver = MIDIClockReceiver()
    /// The tempo's bit pattern; 0 while none is known.
    private let bits = Atomic<UInt64>(0)
    /// count << 2 | message raw value; 0 before the first transport message.
    private let transportWord = Atomic<Int>(0)
    private let clocks = Atomic<Int>(0)

    public init() {}

    /// The incoming clock's tempo in BPM, nil before three clocks arrived. Any thread.
    public var bpm: Double? {
        let b = bits.load(ordering: .relaxed)
        return b == 0 ? nil : Double(bitPattern: b)
    }

    /// The latest Start, Stop or Continue and how many arrived, nil before the first. Any thread.
    public var transport: LiveClockTransport? {
        let word = transportWord.load(ordering: .acquiring)
        guard let message = LiveClockTransport.Message(rawValue: UInt8(word & 3)) else { return nil }
        return LiveClockTransport(message: message, count: word >> 2)
    }

    /// Clocks (0xF8) received so far. Any thread.
    public var clockCount: Int { clocks.load(ordering: .relaxed) }

    /// Audio thread: a system message (clock, Start, Stop, Continue, Song Position) that arrived at
    /// `time` seconds on the audio clock. Channel messages are ignored.
    public func receive(_ message: MIDIShortMessage, at time: Double) {
        guard message.status >= 0xF0 else { return }
        let event = receiver.receive(message, at: time)
        let b = receiver.bpm?.bitPattern ?? 0
        if b != bits.load(ordering: .relaxed) { bits.store(b, ordering: .relaxed) }
        let kind: LiveClockTransport.Message?
        switch event {
        case .started: kind = .start
        case .stopped: kind = .stop
        case .continued: kind = .continue
        default: kind = nil
        }
        if message.status == 0xF8 { clocks.add(1, ordering: .relaxed) }
        if let kind {
            let count = (transportWord.load(ordering: .relaxed) >> 2) + 1
            transportWord.store(count << 2 | Int(kind.rawValue), ordering: .releasing)
        }
    }
}
