import Enobarbus
import Testing

/// Byte-building helpers written from the OSC 1.0 specification, independent of the encoder.
enum Bytes {
    static func string(_ s: String) -> [UInt8] {
        var b = Array(s.utf8) + [0]
        while b.count % 4 != 0 { b.append(0) }
        return b
    }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }
    static func float(_ f: Float) -> [UInt8] { be32(f.bitPattern) }
    static func bundle(_ tag: UInt64, _ elements: [[UInt8]]) -> [UInt8] {
        string("#bundle") + be64(tag) + elements.flatMap { be32(UInt32($0.count)) + $0 }
    }
}

@Suite struct OSCCodecTests {
    /// Every type tag, each checked against bytes built by hand from the specification.
    @Test func everyTypeEncodesToTheSpecifiedBytesAndDecodesBack() throws {
        let cases: [(OSCArgument, String, [UInt8])] = [
            (.int32(-2), "i", [0xFF, 0xFF, 0xFF, 0xFE]),
            (.float32(1.5), "f", [0x3F, 0xC0, 0, 0]),
            (.string("hello"), "s", Array("hello".utf8) + [0, 0, 0]),
            (.string(""), "s", [0, 0, 0, 0]),
            (.blob([1, 2, 3, 4, 5]), "b", [0, 0, 0, 5, 1, 2, 3, 4, 5, 0, 0, 0]),
            (.blob([]), "b", [0, 0, 0, 0]),
            (.int64(-1), "h", Array(repeating: 0xFF, count: 8)),
            (.timeTag(OSCTimeTag(seconds: 3_913_056_000, fraction: 0x8000_0000)), "t", Bytes.be32(3_913_056_000) + [0x80, 0, 0, 0]),
            (.float64(0.25), "d", [0x3F, 0xD0, 0, 0, 0, 0, 0, 0]),
            (.symbol("sym"), "S", Array("sym".utf8) + [0]),
            (.character(UInt8(ascii: "A")), "c", [0, 0, 0, 0x41]),
            (.rgba(0x11_22_33_44), "r", [0x11, 0x22, 0x33, 0x44]),
            (.midi(port: 0, status: 0x90, data1: 60, data2: 100), "m", [0, 0x90, 60, 100]),
            (.true, "T", []), (.false, "F", []), (.nil, "N", []), (.impulse, "I", []),
            (.array([.int32(1), .float32(2)]), "[if]", Bytes.be32(1) + Bytes.float(2)),
            (.array([]), "[]", []),
            (.array([.array([.true]), .string("x")]), "[[T]s]", Array("x".utf8) + [0, 0, 0]),
        ]
        for (argument, tag, data) in cases {
            let message = OSCMessage("/a/b", [argument])
            let expected = Bytes.string("/a/b") + Bytes.string("," + tag) + data
            let encoded = try OSCEncoder.encode(message)
            #expect(encoded == expected, "encoding \(argument)")
            #expect(try OSCDecoder.decode(expected) == .message(message), "decoding \(argument)")
        }
    }

    @Test func allTypesInOneMessageRoundTrip() throws {
        let message = OSCMessage("/all", [
            .int32(Int32.min), .float32(-0.0), .string("abc"), .blob([9]), .int64(Int64.max),
            .timeTag(.immediately), .float64(-1e300), .symbol("S"), .character(0x7A), .rgba(0xFFFF_FFFF),
            .midi(port: 1, status: 0xB0, data1: 7, data2: 127), .true, .false, .nil, .impulse,
            .array([.float32(.infinity), .array([.int32(0)])]),
        ])
        let bytes = try OSCEncoder.encode(message)
        #expect(bytes.count % 4 == 0)
        #expect(try OSCDecoder.decode(bytes) == .message(message))
        #expect(message.typeTags == "ifsbhtdScrmTFNI[f[i]]")
    }

    @Test func nestedBundlesRoundTripAndMatchHandBuiltBytes() throws {
        let inner = OSCBundle(timeTag: OSCTimeTag(rawValue: 200), [.message(OSCMessage("/x", [.float32(1)]))])
        let outer = OSCBundle(timeTag: OSCTimeTag(rawValue: 100), [.message(OSCMessage("/y", [])), .bundle(inner)])
        let innerBytes = Bytes.bundle(200, [Bytes.string("/x") + Bytes.string(",f") + Bytes.float(1)])
        let expected = Bytes.bundle(100, [Bytes.string("/y") + Bytes.string(","), innerBytes])
        #expect(try OSCEncoder.encode(.bundle(outer)) == expected)
        let decoded = try OSCDecoder.decode(expected)
        #expect(decoded == .bundle(outer))
        #expect(decoded.messages.map(\.address) == ["/y", "/x"])
    }

    @Test func emptyBundleIsValid() throws {
        let bytes = Bytes.bundle(1, [])
        #expect(try OSCDecoder.decode(bytes) == .bundle(OSCBundle(timeTag: .immediately, [])))
    }

    // MARK: malformed packets give the specific typed error

    func error(_ bytes: [UInt8]) -> OSCDecodingError? {
        do { _ = try OSCDecoder.decode(bytes); return nil } catch { return error }
    }

    @Test func badPaddingAfterAStringNamesTheByte() {
        // "/a", its terminator, then a non-zero padding byte at offset 3.
        let bytes: [UInt8] = [0x2F, 0x61, 0, 0x58] + Bytes.string(",")
        #expect(error(bytes) == .badPadding(field: .address, offset: 3, byte: 0x58))
        var blob = Bytes.string("/b") + Bytes.string(",b") + [0, 0, 0, 1, 7, 0, 9, 0]
        #expect(error(blob) == .badPadding(field: .blob, offset: 14, byte: 9))
        blob[14] = 0
        #expect(error(blob) == nil)
    }

    @Test func sizesThatAreNotMultiplesOfFour() {
        #expect(error(Bytes.string("/a") + Bytes.string(",") + [0]) == .sizeNotMultipleOfFour(field: .packet, size: 9, offset: 0))
        let message = Bytes.string("/a") + Bytes.string(",")
        var bundle = Bytes.bundle(1, [message])
        bundle[19] = 6  // element size 8 → 6
        #expect(error(bundle) == .sizeNotMultipleOfFour(field: .bundleElement, size: 6, offset: 16))
    }

    @Test func lengthsThatOverrunThePacket() {
        // Blob claims 100 bytes, 4 remain.
        let blob = Bytes.string("/b") + Bytes.string(",b") + Bytes.be32(100) + [1, 2, 3, 4]
        #expect(error(blob) == .truncated(field: .blob, offset: 12, needed: 100, available: 4))
        #expect(error(Bytes.string("/b") + Bytes.string(",b") + Bytes.be32(0xFFFF_FFF0)) == .negativeBlobLength(length: -16, offset: 8))
        // Float tag with no data.
        #expect(error(Bytes.string("/f") + Bytes.string(",ff") + Bytes.float(1)) == .truncated(field: .float32, offset: 12, needed: 4, available: 0))
        // Trailing bytes after the last argument.
        #expect(error(Bytes.string("/f") + Bytes.string(",") + [0, 0, 0, 0]) == .trailingBytes(offset: 8, count: 4))
    }

    @Test func typeTagProblems() {
        #expect(error(Bytes.string("/a") + Bytes.string(",iQ") + Bytes.be32(1)) == .unknownTypeTag(tag: UInt8(ascii: "Q"), offset: 6))
        #expect(error(Bytes.string("/a")) == .missingTypeTagComma(offset: 4))
        #expect(error(Bytes.string("/a") + Bytes.be32(1)) == .missingTypeTagComma(offset: 4))
        #expect(error(Bytes.string("/a") + Bytes.string(",[i") + Bytes.be32(1)) == .unbalancedArray(offset: 7))
        #expect(error(Bytes.string("/a") + Bytes.string(",i]") + Bytes.be32(1)) == .unbalancedArray(offset: 6))
    }

    @Test func truncatedBundles() {
        let message = Bytes.string("/a") + Bytes.string(",f") + Bytes.float(1)
        let full = Bytes.bundle(1, [message])
        // Element size says 12 but only 8 bytes follow.
        let cut = Array(full.prefix(full.count - 4))
        #expect(error(cut) == .truncated(field: .bundleElement, offset: 20, needed: 12, available: 8))
        // Header and half a time tag.
        #expect(error(Array(full.prefix(12))) == .truncated(field: .bundleTimeTag, offset: 8, needed: 8, available: 4))
        #expect(error(Bytes.string("#bundlX") + Bytes.be64(1)) == .invalidBundleHeader(offset: 0))
        var zero = Bytes.bundle(1, [message])
        zero.replaceSubrange(16..<20, with: Bytes.be32(0))
        #expect(error(Array(zero.prefix(20))) == .invalidBundleElementSize(size: 0, offset: 16))
    }

    @Test func nestedBundleEarlierThanItsParent() {
        let inner = Bytes.bundle(50, [])
        #expect(error(Bytes.bundle(100, [inner])) == .nestedBundleEarlierThanParent(
            parent: OSCTimeTag(rawValue: 100), nested: OSCTimeTag(rawValue: 50), offset: 20))
        #expect(error(Bytes.bundle(100, [Bytes.bundle(100, [])])) == nil)
        let bad = OSCBundle(timeTag: OSCTimeTag(rawValue: 100), [.bundle(OSCBundle(timeTag: OSCTimeTag(rawValue: 5), []))])
        #expect(throws: OSCEncodingError.nestedBundleEarlierThanParent(parent: OSCTimeTag(rawValue: 100), nested: OSCTimeTag(rawValue: 5))) {
            try OSCEncoder.encode(.bundle(bad))
        }
    }

    @Test func stringsMustBeTerminatedASCII() {
        #expect(error([0x2F, 0x61, 0x62, 0x63]) == .unterminatedString(field: .address, offset: 0))
        #expect(error([0x2F, 0xC3, 0xA9, 0] + Bytes.string(",")) == .nonASCIIString(field: .address, offset: 1, byte: 0xC3))
        #expect(error(Bytes.string("/a") + Bytes.string(",s") + [0x61, 0x62, 0x63, 0x64]) == .unterminatedString(field: .string, offset: 8))
        #expect(throws: OSCEncodingError.nonASCIIString("é")) { try OSCEncoder.encode(OSCMessage("/a", [.string("é")])) }
    }

    @Test func otherStructuralErrors() {
        #expect(error([]) == .emptyPacket)
        #expect(error([0x41, 0, 0, 0]) == .notAMessageOrBundle(offset: 0, byte: 0x41))
        var deep: [UInt8] = Bytes.bundle(1, [])
        for _ in 0..<20 { deep = Bytes.bundle(1, [deep]) }
        #expect(error(deep) == .nestingTooDeep(offset: 20 * OSCDecoder.maximumNestingDepth))
    }

    @Test func errorsDescribeWhatAndWhere() {
        let e = OSCDecodingError.badPadding(field: .address, offset: 3, byte: 0x58)
        #expect(e.description.contains("padding") && e.description.contains("3") && e.description.contains("0x58"))
        #expect(e.offset == 3)
    }
}

@Suite struct OSCCharacterTests {
    @Test func characterHighBytesMustBeZero() {
        let bytes = Bytes.string("/c") + Bytes.string(",c") + [0, 1, 0, 0x41]
        #expect(throws: OSCDecodingError.badPadding(field: .character, offset: 9, byte: 1)) { try OSCDecoder.decode(bytes) }
    }
}
