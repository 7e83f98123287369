import Ariel
import Touchstone

/// Control changes received on `midi_in`, handed from the audio thread to a control thread for MIDI
/// learn and learned mappings (a knob moving a screen control). The audio thread `collect`s each
/// period's CCs into a lock-free ring without allocating; the control thread `drain`s them in order.
/// A full ring drops the newest and counts it (a knob sends a stream; the next value follows soon).
public final class JACKControlChangeTap: @unchecked Sendable {
    private let ring: SPSCRingBuffer<MIDIShortMessage>

    /// - Parameter capacity: CCs that can wait between two drains (a power of two is used).
    public init(capacity: Int = 1024) { ring = SPSCRingBuffer(minimumCapacity: capacity) }

    /// Audio thread: keeps the period's control changes (status 0xB0…0xBF).
    @inline(__always)
    public func collect(_ midiIn: JACKMIDIInput) {
        for event in midiIn {
            let status = event.status
            guard status & 0xF0 == 0xB0, let m = MIDIShortMessage(status: status, data1: event.data1 & 0x7F, data2: event.data2 & 0x7F)
            else { continue }
            _ = ring.push(m)
        }
    }

    /// Audio thread: keeps one message (a test's or a non-JACK driver's input).
    public func collect(_ message: MIDIShortMessage) { _ = ring.push(message) }

    /// Control thread: every control change since the last call, in arrival order.
    @discardableResult
    public func drain(_ body: (MIDIMessage) -> Void) -> Int { ring.drain { body(MIDIMessage($0)) } }

    /// CCs lost to a full ring.
    public var droppedCount: Int { ring.droppedCount }
}
