/// Why a value cannot be written as OSC 1.0.
public enum OSCEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A string contains a NUL or a byte outside 7-bit ASCII.
    case nonASCIIString(String)
    /// An address does not start with "/".
    case addressMissingSlash(String)
    /// A nested bundle's time tag is earlier than its parent's.
    case nestedBundleEarlierThanParent(parent: OSCTimeTag, nested: OSCTimeTag)
    /// A blob or element larger than an int32 size field can state.
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .nonASCIIString(let s): return "OSC: string \(s.debugDescription) is not NUL-free 7-bit ASCII"
        case .addressMissingSlash(let a): return "OSC: address \(a.debugDescription) does not start with '/'"
        case .nestedBundleEarlierThanParent(let p, let n):
            return "OSC: nested bundle time tag \(n) is earlier than its parent's \(p)"
        case .tooLarge(let n): return "OSC: \(n) bytes do not fit an int32 size field"
        }
    }
}

/// OSC 1.0 encoder: the exact inverse of `OSCDecoder` for every valid packet.
///
///     let bytes = try OSCEncoder.encode(.message(OSCMessage("/prospero/face/head", [.float32(12), .float32(0), .float32(0)])))
public enum OSCEncoder {
    /// Encodes a packet to bytes.
    public static func encode(_ packet: OSCPacket) throws(OSCEncodingError) -> [UInt8] {
        var out: [UInt8] = []
        try write(packet, parent: nil, into: &out)
        return out
    }

    /// Encodes a message to bytes.
    public static func encode(_ message: OSCMessage) throws(OSCEncodingError) -> [UInt8] {
        var out: [UInt8] = []
        try write(message, into: &out)
        return out
    }

    /// Appends `packet` to `out`.
    public static func write(_ packet: OSCPacket, parent: OSCTimeTag?, into out: inout [UInt8]) throws(OSCEncodingError) {
        switch packet {
        case .message(let m):
            try write(m, into: &out)
        case .bundle(let b):
            if let parent, b.timeTag < parent {
                throw .nestedBundleEarlierThanParent(parent: parent, nested: b.timeTag)
            }
            out.append(contentsOf: "#bundle".utf8)
            out.append(0)
            appendBE(b.timeTag.rawValue, to: &out)
            for element in b.elements {
                let sizeAt = out.count
                out.append(contentsOf: [0, 0, 0, 0])
                try write(element, parent: b.timeTag, into: &out)
                let size = out.count - sizeAt - 4
                guard size <= Int(Int32.max) else { throw .tooLarge(size) }
                let s = UInt32(size)
                out[sizeAt] = UInt8(s >> 24); out[sizeAt + 1] = UInt8(s >> 16 & 0xFF)
                out[sizeAt + 2] = UInt8(s >> 8 & 0xFF); out[sizeAt + 3] = UInt8(s & 0xFF)
            }
        }
    }

    /// Appends `message` to `out`.
    public static func write(_ message: OSCMessage, into out: inout [UInt8]) throws(OSCEncodingError) {
        guard message.address.utf8.first == UInt8(ascii: "/") else { throw .addressMissingSlash(message.address) }
        try appendString(message.address, to: &out)
        try appendString("," + message.typeTags, to: &out)
        for argument in message.arguments { try appendData(argument, to: &out) }
    }

    static func appendData(_ argument: OSCArgument, to out: inout [UInt8]) throws(OSCEncodingError) {
        switch argument {
        case .int32(let v): appendBE(UInt32(bitPattern: v), to: &out)
        case .float32(let v): appendBE(v.bitPattern, to: &out)
        case .string(let s), .symbol(let s): try appendString(s, to: &out)
        case .blob(let bytes):
            guard bytes.count <= Int(Int32.max) - 4 else { throw .tooLarge(bytes.count) }
            appendBE(UInt32(bytes.count), to: &out)
            out.append(contentsOf: bytes)
            pad(&out)
        case .int64(let v): appendBE(UInt64(bitPattern: v), to: &out)
        case .timeTag(let t): appendBE(t.rawValue, to: &out)
        case .float64(let v): appendBE(v.bitPattern, to: &out)
        case .character(let c): appendBE(UInt32(c), to: &out)
        case .rgba(let v): appendBE(v, to: &out)
        case .midi(let port, let status, let d1, let d2): out.append(contentsOf: [port, status, d1, d2])
        case .true, .false, .nil, .impulse: break
        case .array(let items): for item in items { try appendData(item, to: &out) }
        }
    }

    static func appendString(_ s: String, to out: inout [UInt8]) throws(OSCEncodingError) {
        for b in s.utf8 where b == 0 || b >= 0x80 { throw .nonASCIIString(s) }
        out.append(contentsOf: s.utf8)
        out.append(0)
        pad(&out)
    }

    static func pad(_ out: inout [UInt8]) {
        while out.count % 4 != 0 { out.append(0) }
    }

    static func appendBE(_ v: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(v >> 24)); out.append(UInt8(v >> 16 & 0xFF))
        out.append(UInt8(v >> 8 & 0xFF)); out.append(UInt8(v & 0xFF))
    }

    static func appendBE(_ v: UInt64, to out: inout [UInt8]) {
        appendBE(UInt32(v >> 32), to: &out)
        appendBE(UInt32(v & 0xFFFF_FFFF), to: &out)
    }
}
