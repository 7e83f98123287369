import Ariel
import LiveHost

/// A `midi_out` stand-in that keeps every message, for reading back what the hands controller sent.
final class MIDIRecorder: LiveMIDIOutput, @unchecked Sendable {
    private(set) var messages: [MIDIShortMessage] = []

    @discardableResult
    func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool {
        messages.append(message)
        return true
    }

    /// Note-on note numbers (velocity > 0), in order.
    var noteOns: [Int] { messages.filter { $0.status & 0xF0 == 0x90 && $0.data2 > 0 }.map { Int($0.data1) } }
    /// Note-off note numbers (0x80, or 0x90 with velocity 0), in order.
    var noteOffs: [Int] {
        messages.filter { $0.status & 0xF0 == 0x80 || ($0.status & 0xF0 == 0x90 && $0.data2 == 0) }.map { Int($0.data1) }
    }
    /// Channels (1…16) of the note-ons, in order.
    var noteOnChannels: [Int] { messages.filter { $0.status & 0xF0 == 0x90 && $0.data2 > 0 }.map { Int($0.status & 0x0F) + 1 } }
    /// Notes sounding now: on minus off, counted per channel and note.
    var sounding: [Int] {
        var count: [Int: Int] = [:]
        for m in messages where m.status & 0xF0 == 0x90 || m.status & 0xF0 == 0x80 {
            let key = Int(m.status & 0x0F) * 128 + Int(m.data1)
            count[key, default: 0] += (m.status & 0xF0 == 0x90 && m.data2 > 0) ? 1 : -1
        }
        return count.filter { $0.value > 0 }.map { $0.key % 128 }.sorted()
    }
}
