/// A MIDI 1.0 message: channel voice, system common, system real-time or System Exclusive.
///
/// Fields use validated types (`MIDIChannel`, `MIDIUInt7`, `MIDIUInt14`), so every value of this type
/// encodes to a well-formed byte sequence. Real-time code should prefer `MIDIShortMessage`
/// (inline, no reference counting); `shortMessage` and `init(_:)` convert between the two.
public enum MIDIMessage: Sendable, Hashable {
    // Channel voice
    case noteOff(channel: MIDIChannel, note: MIDIUInt7, velocity: MIDIUInt7)
    /// A note-on with velocity 0 is a note-off by convention (see `isNoteOff`); it is kept as sent.
    case noteOn(channel: MIDIChannel, note: MIDIUInt7, velocity: MIDIUInt7)
    case polyPressure(channel: MIDIChannel, note: MIDIUInt7, pressure: MIDIUInt7)
    case controlChange(channel: MIDIChannel, controller: MIDIUInt7, value: MIDIUInt7)
    case programChange(channel: MIDIChannel, program: MIDIUInt7)
    case channelPressure(channel: MIDIChannel, pressure: MIDIUInt7)
    /// 14-bit bend, centre 8192 (`MIDIUInt14.center`); see `MIDIUInt14.bipolar`.
    case pitchBend(channel: MIDIChannel, value: MIDIUInt14)

    // System common
    /// MTC quarter frame: bits 4…6 are the piece (0…7), bits 0…3 its value.
    case timeCodeQuarterFrame(MIDIUInt7)
    /// Song position in MIDI beats (sixteenth notes, 6 clocks each).
    case songPositionPointer(MIDIUInt14)
    case songSelect(MIDIUInt7)
    case tuneRequest

    // System real-time
    case timingClock
    case start
    case `continue`
    case stop
    case activeSensing
    case systemReset

    case systemExclusive(MIDISystemExclusive)
}

extension MIDIMessage {
    /// The channel of a channel voice message, nil for system messages.
    public var channel: MIDIChannel? {
        switch self {
        case .noteOff(let c, _, _), .noteOn(let c, _, _), .polyPressure(let c, _, _),
             .controlChange(let c, _, _), .programChange(let c, _), .channelPressure(let c, _),
             .pitchBend(let c, _):
            return c
        default:
            return nil
        }
    }

    /// True for the six system real-time messages (F8, FA, FB, FC, FE, FF).
    public var isRealTime: Bool {
        switch self {
        case .timingClock, .start, .continue, .stop, .activeSensing, .systemReset: return true
        default: return false
        }
    }

    /// Note-off, or note-on with velocity 0.
    public var isNoteOff: Bool {
        switch self {
        case .noteOff: return true
        case .noteOn(_, _, let v): return v.rawValue == 0
        default: return false
        }
    }

    /// The inline form, nil for SysEx.
    @inlinable
    public var shortMessage: MIDIShortMessage? {
        switch self {
        case .noteOff(let c, let n, let v): return MIDIShortMessage(unchecked: 0x80 | c.rawValue, n.rawValue, v.rawValue)
        case .noteOn(let c, let n, let v): return MIDIShortMessage(unchecked: 0x90 | c.rawValue, n.rawValue, v.rawValue)
        case .polyPressure(let c, let n, let p): return MIDIShortMessage(unchecked: 0xA0 | c.rawValue, n.rawValue, p.rawValue)
        case .controlChange(let c, let n, let v): return MIDIShortMessage(unchecked: 0xB0 | c.rawValue, n.rawValue, v.rawValue)
        case .programChange(let c, let p): return MIDIShortMessage(unchecked: 0xC0 | c.rawValue, p.rawValue, 0)
        case .channelPressure(let c, let p): return MIDIShortMessage(unchecked: 0xD0 | c.rawValue, p.rawValue, 0)
        case .pitchBend(let c, let v): return MIDIShortMessage(unchecked: 0xE0 | c.rawValue, v.lsb.rawValue, v.msb.rawValue)
        case .timeCodeQuarterFrame(let v): return MIDIShortMessage(unchecked: 0xF1, v.rawValue, 0)
        case .songPositionPointer(let v): return MIDIShortMessage(unchecked: 0xF2, v.lsb.rawValue, v.msb.rawValue)
        case .songSelect(let v): return MIDIShortMessage(unchecked: 0xF3, v.rawValue, 0)
        case .tuneRequest: return MIDIShortMessage(unchecked: 0xF6, 0, 0)
        case .timingClock: return MIDIShortMessage(unchecked: 0xF8, 0, 0)
        case .start: return MIDIShortMessage(unchecked: 0xFA, 0, 0)
        case .continue: return MIDIShortMessage(unchecked: 0xFB, 0, 0)
        case .stop: return MIDIShortMessage(unchecked: 0xFC, 0, 0)
        case .activeSensing: return MIDIShortMessage(unchecked: 0xFE, 0, 0)
        case .systemReset: return MIDIShortMessage(unchecked: 0xFF, 0, 0)
        case .systemExclusive: return nil
        }
    }

    /// The message a short message stands for.
    public init(_ m: MIDIShortMessage) {
        let c = MIDIChannel(unchecked: m.status & 0x0F)
        let d1 = MIDIUInt7(unchecked: m.data1)
        let d2 = MIDIUInt7(unchecked: m.data2)
        switch m.status {
        case 0x80...0x8F: self = .noteOff(channel: c, note: d1, velocity: d2)
        case 0x90...0x9F: self = .noteOn(channel: c, note: d1, velocity: d2)
        case 0xA0...0xAF: self = .polyPressure(channel: c, note: d1, pressure: d2)
        case 0xB0...0xBF: self = .controlChange(channel: c, controller: d1, value: d2)
        case 0xC0...0xCF: self = .programChange(channel: c, program: d1)
        case 0xD0...0xDF: self = .channelPressure(channel: c, pressure: d1)
        case 0xE0...0xEF: self = .pitchBend(channel: c, value: MIDIUInt14(msb: d2, lsb: d1))
        case 0xF1: self = .timeCodeQuarterFrame(d1)
        case 0xF2: self = .songPositionPointer(MIDIUInt14(msb: d2, lsb: d1))
        case 0xF3: self = .songSelect(d1)
        case 0xF6: self = .tuneRequest
        case 0xF8: self = .timingClock
        case 0xFA: self = .start
        case 0xFB: self = .continue
        case 0xFC: self = .stop
        case 0xFE: self = .activeSensing
        default: self = .systemReset  // 0xFF: MIDIShortMessage admits no other status
        }
    }
}
