import Ariel
import Synchronization

/// The MIDI clock arriving at an audio edge's MIDI input as the tempo a live adapter follows: the
/// audio thread hands it every system message of a period with its time on the audio clock (frames
/// elapsed ÷ sample rate), an Ariel ``MIDIClockReceiver`` measures the tempo, and the host's loop reads
/// ``bpm``. One per audio edge, so every front end's adapter follows the clock the same way (the CLI's
/// engine handler and the studio's JACK driver both feed one).
///
/// ``receive(_:at:)`` runs on the audio thread under the render rules: the receiver's storage is
/// allocated in `init`, the tempo crosses threads as one atomic word.
public final class MIDIClockFollower: LiveClock, @unchecked Sendable {
    /// Mutated on the audio thread only.
    private var receiver = MIDIClockReceiver()
    /// The tempo's bit pattern; 0 while none is known.
    private let bits = Atomic<UInt64>(0)

    public init() {}

    /// The incoming clock's tempo in BPM, nil before three clocks arrived. Any thread.
    public var bpm: Double? {
        let b = bits.load(ordering: .relaxed)
        return b == 0 ? nil : Double(bitPattern: b)
    }

    /// Audio thread: a system message (clock, Start, Stop, Continue, Song Position) that arrived at
    /// `time` seconds on the audio clock. Channel messages are ignored.
    public func receive(_ message: MIDIShortMessage, at time: Double) {
        guard message.status >= 0xF0 else { return }
        _ = receiver.receive(message, at: time)
        let b = receiver.bpm?.bitPattern ?? 0
        if b != bits.load(ordering: .relaxed) { bits.store(b, ordering: .relaxed) }
    }
}
