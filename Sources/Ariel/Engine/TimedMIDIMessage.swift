/// A MIDI message and the frame inside the current block at which it takes effect.
public struct TimedMIDIMessage: Sendable, Hashable {
    /// Frames from the start of the block, 0 ≤ offset < block length.
    public var frameOffset: Int
    public var message: MIDIShortMessage

    public init(frameOffset: Int, message: MIDIShortMessage) {
        self.frameOffset = frameOffset
        self.message = message
    }
}
