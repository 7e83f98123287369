/// Why bytes are not the MIDI message(s) they were expected to be.
public enum MIDIDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No bytes.
    case empty
    /// A message was cut off: `status` needed `expected` data bytes but only `found` arrived.
    case incompleteMessage(status: UInt8, expected: Int, found: Int)
    /// Bytes remained after one complete message.
    case trailingBytes(count: Int)
    /// A stream error at byte `offset` (running status without status, undefined status, …).
    case stream(MIDIStreamError, offset: Int)
    /// SysEx started with F0 but no F7 arrived.
    case unterminatedSystemExclusive

    public var description: String {
        switch self {
        case .empty: return "MIDI: no bytes"
        case .incompleteMessage(let s, let e, let f):
            return "MIDI: status 0x\(String(s, radix: 16, uppercase: true)) needs \(e) data bytes, found \(f)"
        case .trailingBytes(let n): return "MIDI: \(n) bytes after a complete message"
        case .stream(let e, let o): return "MIDI byte \(o): \(e)"
        case .unterminatedSystemExclusive: return "MIDI: SysEx without F7 at the end"
        }
    }
}
