/// Reads one inflated section the way the original's parse() does: little-endian Float16, Int8
/// enums, one-byte bools (any non-zero byte is true), signed Int8 array counts. Bytes after the last
/// field are ignored, as the original ignores them.
struct HiSynthPayloadReader {
    let bytes: [UInt8]
    let section: HiSynthPresetSection
    private(set) var offset = 0

    init(_ bytes: [UInt8], section: HiSynthPresetSection) {
        self.bytes = bytes
        self.section = section
    }

    private mutating func take(_ count: Int, _ field: String) throws(HiSynthPresetError) -> ArraySlice<UInt8> {
        guard bytes.count - offset >= count else {
            throw .shortPayload(section, field: field, offset: offset, available: bytes.count)
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func float16(_ field: String) throws(HiSynthPresetError) -> Float16 {
        let pair = try take(2, field)
        let value = Float16(bitPattern: UInt16(pair[pair.startIndex]) | UInt16(pair[pair.startIndex + 1]) << 8)
        guard value.isFinite else { throw .nonFinite(section, field: field) }
        return value
    }

    mutating func bool(_ field: String) throws(HiSynthPresetError) -> Bool {
        try take(1, field).first! != 0
    }

    mutating func waveform(_ field: String) throws(HiSynthPresetError) -> HiSynthWaveform {
        let code = Int8(bitPattern: try take(1, field).first!)
        guard let waveform = HiSynthWaveform(rawValue: code) else { throw .enumOutOfRange(section, field: field, code: code) }
        return waveform
    }

    mutating func reverbType(_ field: String) throws(HiSynthPresetError) -> HiSynthReverbType {
        let code = Int8(bitPattern: try take(1, field).first!)
        guard let type = HiSynthReverbType(rawValue: code) else { throw .enumOutOfRange(section, field: field, code: code) }
        return type
    }

    /// Reads an array's count byte and checks it is `expected`.
    mutating func count(_ field: String, expected: Int) throws(HiSynthPresetError) {
        let count = Int(Int8(bitPattern: try take(1, field + " count").first!))
        guard count == expected else { throw .wrongArrayCount(section, field: field, count: count, expected: expected) }
    }
}
