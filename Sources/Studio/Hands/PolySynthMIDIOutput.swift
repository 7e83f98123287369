import Ariel
import LiveHost

/// MIDI into the built-in synth through its engine host's command ring (control thread → audio
/// thread, lock-free), so the router's messages play the synth the way they reach `midi_out`.
public final class PolySynthMIDIOutput: LiveMIDIOutput, @unchecked Sendable {
    public let host: EngineHost<PolySynth>

    public init(host: EngineHost<PolySynth>) {
        self.host = host
    }

    /// Queues `message`; false (and counted by the host) when the ring is full.
    @discardableResult
    public func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool { host.send(.midi(message), dueAt: due) }
}
