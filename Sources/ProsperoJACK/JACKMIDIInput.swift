import CJACKLoader

/// The MIDI events that reached Prospero's MIDI input port in the current period,
/// in time order. A view on JACK's port buffer: reading allocates nothing.
public struct JACKMIDIInput: RandomAccessCollection {
    @usableFromInline let portBuffer: UnsafeMutableRawPointer?
    /// Number of events in this period.
    public let count: Int
    /// JACK's frame time of this period's first frame (`jack_last_frame_time`): an event's absolute
    /// frame is this plus its offset, and commands stamped with a due frame time are placed against
    /// it (``FrameSchedule``). Nil outside JACK.
    public let periodStartFrame: UInt32?

    @inlinable
    init(portBuffer: UnsafeMutableRawPointer?, count: Int, periodStartFrame: UInt32? = nil) {
        self.portBuffer = portBuffer
        self.count = count
        self.periodStartFrame = periodStartFrame
    }

    /// No events (for a handler called outside JACK, e.g. in tests).
    public static var empty: JACKMIDIInput { JACKMIDIInput(portBuffer: nil, count: 0) }

    /// No events in a period starting at frame time `periodStartFrame` (for a handler driven outside JACK).
    public static func empty(periodStartFrame: UInt32) -> JACKMIDIInput {
        JACKMIDIInput(portBuffer: nil, count: 0, periodStartFrame: periodStartFrame)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// The `index`th event of this period.
    @inlinable
    public subscript(index: Int) -> JACKMIDIEvent {
        precondition(index >= 0 && index < count, "MIDI event index out of range")
        var event = pj_jack_midi_event_t()
        guard pj_jack_midi_event_get(&event, portBuffer, UInt32(index)) == 0, let data = event.buffer else {
            return JACKMIDIEvent(frame: Int(event.time), bytes: UnsafeBufferPointer(start: nil, count: 0))
        }
        return JACKMIDIEvent(frame: Int(event.time), bytes: UnsafeBufferPointer(start: data, count: event.size))
    }
}
