import Ariel

/// Where an instrument's MIDI goes (the JACK edge's `midi_out` queue, a test's list).
public protocol LiveMIDIOutput: AnyObject, Sendable {
    /// Queues one message due at audio frame time `due` (``LiveFrameClock``; nil: as soon as
    /// possible); false when it had to be dropped (full queue).
    @discardableResult
    func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool
}

extension LiveMIDIOutput {
    /// Queues one message for as soon as possible.
    @discardableResult
    public func send(_ message: MIDIShortMessage) -> Bool { send(message, dueAt: nil) }
}
