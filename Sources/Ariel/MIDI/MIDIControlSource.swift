/// A physical control a parameter can be bound to.
public enum MIDIControlSource: Sendable, Hashable, Codable {
    /// A 7-bit controller (value 0…127).
    case controlChange(channel: MIDIChannel, controller: MIDIUInt7)
    /// A 14-bit controller pair: MSB on `msbController` (0…31), LSB on `msbController + 32`.
    case controlChange14Bit(channel: MIDIChannel, msbController: MIDIUInt7)
    /// A key: note-on velocity while held, 0 on release.
    case note(channel: MIDIChannel, note: MIDIUInt7)
    /// The pitch-bend wheel (14-bit).
    case pitchBend(channel: MIDIChannel)
    /// Channel pressure (aftertouch).
    case channelPressure(channel: MIDIChannel)

    public var channel: MIDIChannel {
        switch self {
        case .controlChange(let c, _), .controlChange14Bit(let c, _), .note(let c, _), .pitchBend(let c),
             .channelPressure(let c):
            return c
        }
    }
}
