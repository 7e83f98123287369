/// Something wrong in a live MIDI byte stream. The parser skips the offending bytes, counts the error
/// in `MIDIStreamParser.Statistics` and carries on.
public enum MIDIStreamError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A data byte (0x00…0x7F) with no status in effect: no running status, or after a system
    /// common message or SysEx, which cancel it.
    case strayDataByte(UInt8)
    /// An undefined status byte: F4, F5 (system common) or F9, FD (real-time).
    case undefinedStatus(UInt8)
    /// A channel or system common message cut off by a new status byte before its data bytes arrived.
    case incompleteMessage(status: UInt8, received: Int)
    /// A SysEx longer than the parser's maximum; it was dropped whole.
    case sysExTooLong(maximum: Int)
    /// A SysEx ended by a status byte other than F7; it was dropped because it may be incomplete.
    case sysExInterrupted(by: UInt8)
    /// F7 (End of Exclusive) with no SysEx in progress.
    case unexpectedEndOfExclusive

    public var description: String {
        func hex(_ b: UInt8) -> String { "0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
        switch self {
        case .strayDataByte(let b): return "data byte \(hex(b)) with no status in effect"
        case .undefinedStatus(let b): return "undefined status byte \(hex(b))"
        case .incompleteMessage(let s, let n): return "message \(hex(s)) cut off after \(n) data bytes"
        case .sysExTooLong(let max): return "SysEx longer than \(max) bytes dropped"
        case .sysExInterrupted(let b): return "SysEx interrupted by status \(hex(b)) and dropped"
        case .unexpectedEndOfExclusive: return "F7 End of Exclusive with no SysEx in progress"
        }
    }
}
