/// Writes one section's canonical payload: the byte layout `HiSynthPayloadReader` reads.
struct HiSynthPayloadWriter {
    let section: HiSynthPresetSection
    private(set) var bytes: [UInt8] = []

    init(section: HiSynthPresetSection) {
        self.section = section
    }

    mutating func float16(_ value: Float16, _ field: String) throws(HiSynthPresetError) {
        guard value.isFinite else { throw .nonFinite(section, field: field) }
        bytes.append(UInt8(truncatingIfNeeded: value.bitPattern))
        bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> 8))
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func code(_ value: Int8) {
        bytes.append(UInt8(bitPattern: value))
    }

    mutating func count(_ count: Int, _ field: String, expected: Int) throws(HiSynthPresetError) {
        guard count == expected else { throw .wrongArrayCount(section, field: field, count: count, expected: expected) }
        bytes.append(UInt8(count))
    }
}
