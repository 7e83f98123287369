/// The part of a packet a decoding error refers to.
public enum OSCField: String, Sendable, Hashable {
    case packet, address, typeTags, bundleHeader, bundleTimeTag, bundleElementSize, bundleElement
    case int32, float32, string, blob, int64, timeTag, float64, symbol, character, rgba, midi
}

/// Why a byte sequence is not a valid OSC 1.0 packet. Every case names the byte offset
/// (from the start of the packet) where the problem was found.
public enum OSCDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The datagram had no bytes.
    case emptyPacket
    /// A packet or bundle element whose size is not a multiple of 4.
    case sizeNotMultipleOfFour(field: OSCField, size: Int, offset: Int)
    /// The packet (or element) starts with neither "/" (message) nor "#bundle".
    case notAMessageOrBundle(offset: Int, byte: UInt8)
    /// A field needs more bytes than remain.
    case truncated(field: OSCField, offset: Int, needed: Int, available: Int)
    /// A string has no NUL terminator before the end of its packet or element.
    case unterminatedString(field: OSCField, offset: Int)
    /// A string contains a byte outside printable 7-bit ASCII (or a control character).
    case nonASCIIString(field: OSCField, offset: Int, byte: UInt8)
    /// A padding byte after a string or blob is not zero.
    case badPadding(field: OSCField, offset: Int, byte: UInt8)
    /// The type-tag string is missing or does not start with ",": a legacy packet, rejected.
    case missingTypeTagComma(offset: Int)
    /// A type tag this decoder does not know; its data length is unknown, so decoding stops.
    case unknownTypeTag(tag: UInt8, offset: Int)
    /// "]" without "[", or "[" never closed.
    case unbalancedArray(offset: Int)
    /// A blob's length field is negative.
    case negativeBlobLength(length: Int32, offset: Int)
    /// A bundle element's size is zero or negative.
    case invalidBundleElementSize(size: Int32, offset: Int)
    /// The first 8 bytes start with "#" but are not "#bundle\0".
    case invalidBundleHeader(offset: Int)
    /// A nested bundle's time tag is earlier than its enclosing bundle's.
    case nestedBundleEarlierThanParent(parent: OSCTimeTag, nested: OSCTimeTag, offset: Int)
    /// A message's arguments end before its packet or element does.
    case trailingBytes(offset: Int, count: Int)
    /// Bundles or arrays nested deeper than `OSCDecoder.maximumNestingDepth`.
    case nestingTooDeep(offset: Int)

    /// The byte offset the error refers to (0 for an empty packet).
    public var offset: Int {
        switch self {
        case .emptyPacket: return 0
        case .sizeNotMultipleOfFour(_, _, let o), .notAMessageOrBundle(let o, _), .truncated(_, let o, _, _),
            .unterminatedString(_, let o), .nonASCIIString(_, let o, _), .badPadding(_, let o, _),
            .missingTypeTagComma(let o), .unknownTypeTag(_, let o), .unbalancedArray(let o),
            .negativeBlobLength(_, let o), .invalidBundleElementSize(_, let o), .invalidBundleHeader(let o),
            .nestedBundleEarlierThanParent(_, _, let o), .trailingBytes(let o, _), .nestingTooDeep(let o):
            return o
        }
    }

    public var description: String {
        switch self {
        case .emptyPacket:
            return "OSC: empty packet"
        case .sizeNotMultipleOfFour(let field, let size, let offset):
            return "OSC: \(field.rawValue) size \(size) at byte \(offset) is not a multiple of 4"
        case .notAMessageOrBundle(let offset, let byte):
            return "OSC: byte \(offset) is 0x\(hex(byte)), expected '/' (message) or '#bundle'"
        case .truncated(let field, let offset, let needed, let available):
            return "OSC: \(field.rawValue) at byte \(offset) needs \(needed) bytes, only \(available) remain"
        case .unterminatedString(let field, let offset):
            return "OSC: \(field.rawValue) string at byte \(offset) has no NUL terminator"
        case .nonASCIIString(let field, let offset, let byte):
            return "OSC: \(field.rawValue) string has non-ASCII byte 0x\(hex(byte)) at byte \(offset)"
        case .badPadding(let field, let offset, let byte):
            return "OSC: \(field.rawValue) padding byte at \(offset) is 0x\(hex(byte)), must be 0"
        case .missingTypeTagComma(let offset):
            return "OSC: type-tag string at byte \(offset) is missing or does not start with ','"
        case .unknownTypeTag(let tag, let offset):
            return "OSC: unknown type tag 0x\(hex(tag)) ('\(Character(Unicode.Scalar(tag)))') at byte \(offset)"
        case .unbalancedArray(let offset):
            return "OSC: unbalanced array brackets in type tags at byte \(offset)"
        case .negativeBlobLength(let length, let offset):
            return "OSC: blob length \(length) at byte \(offset) is negative"
        case .invalidBundleElementSize(let size, let offset):
            return "OSC: bundle element size \(size) at byte \(offset) must be positive"
        case .invalidBundleHeader(let offset):
            return "OSC: bytes at \(offset) start with '#' but are not '#bundle\\0'"
        case .nestedBundleEarlierThanParent(let parent, let nested, let offset):
            return "OSC: nested bundle at byte \(offset) has time tag \(nested), earlier than its parent's \(parent)"
        case .trailingBytes(let offset, let count):
            return "OSC: \(count) bytes at \(offset) follow the last argument of a message"
        case .nestingTooDeep(let offset):
            return "OSC: bundles or arrays nested deeper than \(OSCDecoder.maximumNestingDepth) at byte \(offset)"
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
