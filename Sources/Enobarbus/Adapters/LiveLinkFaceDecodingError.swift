/// Why a datagram is not a Live Link Face frame. Byte offsets count from the start of the datagram.
public enum LiveLinkFaceDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the field at `offset` needs.
    case truncated(field: String, offset: Int, needed: Int, available: Int)
    /// The little-endian version field is not one this decoder knows (6).
    case unsupportedVersion(UInt32)
    /// The device id does not start with "$" (the app writes "$" + UUID).
    case badDeviceID
    /// The subject name length is negative or longer than the datagram.
    case badNameLength(Int32)
    /// The subject name is not UTF-8.
    case badName
    /// The value count is not Unreal's 61.
    case badValueCount(Int)
    /// Bytes left after the 61 values.
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .truncated(let f, let o, let n, let a): return "Live Link Face: \(f) at byte \(o) needs \(n) bytes, \(a) remain"
        case .unsupportedVersion(let v): return "Live Link Face: version \(v) is not 6"
        case .badDeviceID: return "Live Link Face: device id does not start with '$'"
        case .badNameLength(let n): return "Live Link Face: subject name length \(n) is out of range"
        case .badName: return "Live Link Face: subject name is not UTF-8"
        case .badValueCount(let n): return "Live Link Face: \(n) values, expected 61"
        case .trailingBytes(let n): return "Live Link Face: \(n) bytes after the 61 values"
        }
    }
}
