import Ariel
import LiveHost
import Synchronization

/// `midi_out` as the live host's MIDI output.
extension QueuedMIDIHandler: LiveMIDIOutput {}

/// The MIDI clock a ``QueuedMIDIHandler`` received on `midi_in`, measured by a ``MIDIClockReceiver``
/// each time the live host reads the tempo.
public final class QueuedMIDIClock: LiveClock, @unchecked Sendable {
    public let handler: QueuedMIDIHandler
    private let receiver = Mutex(MIDIClockReceiver())

    public init(handler: QueuedMIDIHandler) { self.handler = handler }

    public var bpm: Double? {
        receiver.withLock { clock in
            _ = handler.drainClock { event in _ = clock.receive(event.message, at: event.seconds) }
            return clock.bpm
        }
    }
}
