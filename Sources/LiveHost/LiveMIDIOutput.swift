import Ariel

/// Where an instrument's MIDI goes (the JACK edge's `midi_out` queue, a test's list).
public protocol LiveMIDIOutput: AnyObject, Sendable {
    /// Queues one message; false when it had to be dropped (full queue).
    @discardableResult
    func send(_ message: MIDIShortMessage) -> Bool
}
