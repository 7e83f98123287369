/// Strict OSC 1.0 decoder.
///
/// Validates everything the specification fixes: 4-byte alignment, NUL-terminated
/// ASCII strings with zero padding, the leading "," of the type tags, blob and bundle
/// element lengths, and that a nested bundle's time tag is not earlier than its parent's.
/// Decoding never traps: every failure is an `OSCDecodingError` naming the byte offset.
///
///     let packet = try OSCDecoder.decode(bytes)
///
/// - Complexity: O(n) in the packet size. A message costs one allocation for its argument
///   array, plus one per string longer than 15 bytes (short strings are stored inline).
public enum OSCDecoder {
    /// How deep bundles inside bundles, and arrays inside arrays, may nest.
    public static let maximumNestingDepth = 16

    /// Decodes one packet from an array of bytes.
    public static func decode(_ bytes: [UInt8]) throws(OSCDecodingError) -> OSCPacket {
        let result: Result<OSCPacket, OSCDecodingError> = bytes.withUnsafeBytes { raw in
            Result { () throws(OSCDecodingError) -> OSCPacket in try decode(raw) }
        }
        return try result.get()
    }

    /// Decodes one packet from raw bytes (a UDP datagram's payload).
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(OSCDecodingError) -> OSCPacket {
        guard !bytes.isEmpty else { throw .emptyPacket }
        guard bytes.count % 4 == 0 else {
            throw .sizeNotMultipleOfFour(field: .packet, size: bytes.count, offset: 0)
        }
        var reader = OSCByteReader(bytes)
        return try reader.packet(end: bytes.count, parentTimeTag: nil, depth: 0)
    }

    /// Decodes one message. Throws if the packet is a bundle or invalid.
    public static func decodeMessage(_ bytes: UnsafeRawBufferPointer) throws(OSCDecodingError) -> OSCMessage {
        guard !bytes.isEmpty else { throw .emptyPacket }
        guard bytes.count % 4 == 0 else {
            throw .sizeNotMultipleOfFour(field: .packet, size: bytes.count, offset: 0)
        }
        guard bytes[0] == UInt8(ascii: "/") else { throw .notAMessageOrBundle(offset: 0, byte: bytes[0]) }
        var reader = OSCByteReader(bytes)
        return try reader.message(end: bytes.count, depth: 0)
    }
}

/// A cursor over the packet bytes. Offsets are absolute from the packet start, so errors
/// inside nested bundles still name the right byte.
@usableFromInline
struct OSCByteReader {
    let base: UnsafeRawBufferPointer
    var offset = 0

    init(_ base: UnsafeRawBufferPointer) { self.base = base }

    @inline(__always)
    func need(_ count: Int, _ field: OSCField, end: Int) throws(OSCDecodingError) {
        if end - offset < count {
            throw .truncated(field: field, offset: offset, needed: count, available: end - offset)
        }
    }

    @inline(__always)
    mutating func uint32(_ field: OSCField, end: Int) throws(OSCDecodingError) -> UInt32 {
        try need(4, field, end: end)
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return UInt32(bigEndian: v)
    }

    @inline(__always)
    mutating func uint64(_ field: OSCField, end: Int) throws(OSCDecodingError) -> UInt64 {
        try need(8, field, end: end)
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(bigEndian: v)
    }

    /// Checks a NUL-terminated, zero-padded ASCII string and returns its byte range.
    @inline(__always)
    mutating func stringRange(_ field: OSCField, end: Int) throws(OSCDecodingError) -> Range<Int> {
        let start = offset
        var i = start
        while true {
            guard i < end else { throw .unterminatedString(field: field, offset: start) }
            let b = base[i]
            if b == 0 { break }
            // Printable ASCII plus tab/newline/CR: OSC strings are 7-bit ASCII.
            if b >= 0x80 || (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) {
                throw .nonASCIIString(field: field, offset: i, byte: b)
            }
            i += 1
        }
        let padded = (i + 4) & ~3
        guard padded <= end else {
            throw .truncated(field: field, offset: start, needed: padded - start, available: end - start)
        }
        var p = i + 1
        while p < padded {
            if base[p] != 0 { throw .badPadding(field: field, offset: p, byte: base[p]) }
            p += 1
        }
        offset = padded
        return start..<i
    }

    @inline(__always)
    func makeString(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: base[range]), as: UTF8.self)
    }

    mutating func packet(end: Int, parentTimeTag: OSCTimeTag?, depth: Int) throws(OSCDecodingError) -> OSCPacket {
        guard offset < end else { throw .truncated(field: .packet, offset: offset, needed: 4, available: 0) }
        let first = base[offset]
        if first == UInt8(ascii: "/") {
            return .message(try message(end: end, depth: depth))
        }
        if first == UInt8(ascii: "#") {
            return .bundle(try bundle(end: end, parentTimeTag: parentTimeTag, depth: depth))
        }
        throw .notAMessageOrBundle(offset: offset, byte: first)
    }

    mutating func bundle(end: Int, parentTimeTag: OSCTimeTag?, depth: Int) throws(OSCDecodingError) -> OSCBundle {
        let start = offset
        guard depth < OSCDecoder.maximumNestingDepth else { throw .nestingTooDeep(offset: start) }
        try need(8, .bundleHeader, end: end)
        // "#bundle\0" as a big-endian UInt64.
        guard UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) == 0x2362_756E_646C_6500
        else { throw .invalidBundleHeader(offset: start) }
        offset += 8
        let tag = OSCTimeTag(rawValue: try uint64(.bundleTimeTag, end: end))
        if let parentTimeTag, tag < parentTimeTag {
            throw .nestedBundleEarlierThanParent(parent: parentTimeTag, nested: tag, offset: start)
        }
        var elements: [OSCPacket] = []
        while offset < end {
            let sizeOffset = offset
            let size = Int32(bitPattern: try uint32(.bundleElementSize, end: end))
            guard size > 0 else { throw .invalidBundleElementSize(size: size, offset: sizeOffset) }
            guard size % 4 == 0 else {
                throw .sizeNotMultipleOfFour(field: .bundleElement, size: Int(size), offset: sizeOffset)
            }
            try need(Int(size), .bundleElement, end: end)
            let elementEnd = offset + Int(size)
            elements.append(try packet(end: elementEnd, parentTimeTag: tag, depth: depth + 1))
            offset = elementEnd
        }
        return OSCBundle(timeTag: tag, elements)
    }

    mutating func message(end: Int, depth: Int) throws(OSCDecodingError) -> OSCMessage {
        let addressRange = try stringRange(.address, end: end)
        let tagsOffset = offset
        guard offset < end, base[offset] == UInt8(ascii: ",") else { throw .missingTypeTagComma(offset: tagsOffset) }
        let tags = try stringRange(.typeTags, end: end)
        let address = makeString(addressRange)
        var arguments: [OSCArgument] = []
        arguments.reserveCapacity(tags.count - 1)
        var i = tags.lowerBound + 1
        try self.arguments(tags: tags, index: &i, into: &arguments, end: end, depth: depth, closing: false)
        if offset != end { throw .trailingBytes(offset: offset, count: end - offset) }
        return OSCMessage(address, arguments)
    }

    /// Reads arguments for tags from `index` until the end of the tags (or a "]" when `closing`).
    mutating func arguments(
        tags: Range<Int>, index i: inout Int, into out: inout [OSCArgument], end: Int, depth: Int, closing: Bool
    ) throws(OSCDecodingError) {
        while i < tags.upperBound {
            let tag = base[i]
            let tagOffset = i
            i += 1
            switch tag {
            case UInt8(ascii: "i"): out.append(.int32(Int32(bitPattern: try uint32(.int32, end: end))))
            case UInt8(ascii: "f"): out.append(.float32(Float(bitPattern: try uint32(.float32, end: end))))
            case UInt8(ascii: "s"): out.append(.string(makeString(try stringRange(.string, end: end))))
            case UInt8(ascii: "S"): out.append(.symbol(makeString(try stringRange(.symbol, end: end))))
            case UInt8(ascii: "b"): out.append(.blob(try blob(end: end)))
            case UInt8(ascii: "h"): out.append(.int64(Int64(bitPattern: try uint64(.int64, end: end))))
            case UInt8(ascii: "t"): out.append(.timeTag(OSCTimeTag(rawValue: try uint64(.timeTag, end: end))))
            case UInt8(ascii: "d"): out.append(.float64(Double(bitPattern: try uint64(.float64, end: end))))
            case UInt8(ascii: "c"):
                let at = offset
                let v = try uint32(.character, end: end)
                // The character sits in the low byte; the three bytes before it must be zero.
                if v > 0xFF {
                    let k = v > 0xFF_FFFF ? 0 : (v > 0xFFFF ? 1 : 2)
                    throw .badPadding(field: .character, offset: at + k, byte: UInt8(truncatingIfNeeded: v >> UInt32(24 - 8 * k)))
                }
                out.append(.character(UInt8(v)))
            case UInt8(ascii: "r"): out.append(.rgba(try uint32(.rgba, end: end)))
            case UInt8(ascii: "m"):
                let v = try uint32(.midi, end: end)
                out.append(.midi(port: UInt8(v >> 24), status: UInt8(v >> 16 & 0xFF),
                                 data1: UInt8(v >> 8 & 0xFF), data2: UInt8(v & 0xFF)))
            case UInt8(ascii: "T"): out.append(.true)
            case UInt8(ascii: "F"): out.append(.false)
            case UInt8(ascii: "N"): out.append(.nil)
            case UInt8(ascii: "I"): out.append(.impulse)
            case UInt8(ascii: "["):
                guard depth + 1 < OSCDecoder.maximumNestingDepth else { throw .nestingTooDeep(offset: tagOffset) }
                var items: [OSCArgument] = []
                try arguments(tags: tags, index: &i, into: &items, end: end, depth: depth + 1, closing: true)
                out.append(.array(items))
            case UInt8(ascii: "]"):
                guard closing else { throw .unbalancedArray(offset: tagOffset) }
                return
            default:
                throw .unknownTypeTag(tag: tag, offset: tagOffset)
            }
        }
        if closing { throw .unbalancedArray(offset: tags.upperBound) }
    }

    mutating func blob(end: Int) throws(OSCDecodingError) -> [UInt8] {
        let lengthOffset = offset
        let length = Int32(bitPattern: try uint32(.blob, end: end))
        guard length >= 0 else { throw .negativeBlobLength(length: length, offset: lengthOffset) }
        let count = Int(length)
        let padded = (count + 3) & ~3
        try need(padded, .blob, end: end)
        let bytes = Array(UnsafeRawBufferPointer(rebasing: base[offset..<offset + count]))
        var p = offset + count
        while p < offset + padded {
            if base[p] != 0 { throw .badPadding(field: .blob, offset: p, byte: base[p]) }
            p += 1
        }
        offset += padded
        return bytes
    }
}
