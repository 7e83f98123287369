import Ariel
import LiveHost
import Touchstone

/// The hands' way to JACK `midi_out`: the control thread queues messages into a lock-free ring, the
/// audio driver drains them each period (``HandsStudioAudio/drainMIDI(_:)``). A full ring drops the
/// message and counts it; nothing blocks.
public final class HandsMIDIQueue: LiveMIDIOutput, @unchecked Sendable {
    private let ring: SPSCRingBuffer<MIDIShortMessage>

    /// - Parameter capacity: messages that can wait between two periods (rounded up to a power of two).
    public init(capacity: Int = 4096) {
        ring = SPSCRingBuffer(minimumCapacity: capacity)
    }

    /// Control thread: queues `message`; false when the ring was full.
    @discardableResult
    /// The studio's touches carry no audio-clock time yet, so `due` is not used: each message leaves at
    /// the start of the next period.
    public func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool { ring.push(message) }

    /// Audio thread: hands every queued message to `body`, oldest first. Real-time safe.
    @inline(__always)
    public func drain(_ body: (MIDIShortMessage) -> Void) {
        while let message = ring.pop() { body(message) }
    }

    /// Messages dropped because the ring was full.
    public var droppedCount: Int { ring.droppedCount }
}
