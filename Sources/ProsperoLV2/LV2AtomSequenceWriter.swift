/// Builds an atom sequence of MIDI events in a fixed buffer, as a host does for `run` (benchmarks and
/// tests drive the adapters with it). Layout as `LV2AtomSequence` reads it.
public final class LV2AtomSequenceWriter {
    public let capacity: Int
    public let buffer: UnsafeMutableRawPointer
    let midiEvent: UInt32
    var used = 16

    /// - Parameters:
    ///   - capacity: bytes, at least 16.
    ///   - midiEvent: the URID of `midi:MidiEvent`.
    public init(capacity: Int, midiEvent: UInt32, sequenceType: UInt32 = 0) {
        self.capacity = max(16, capacity)
        self.midiEvent = midiEvent
        buffer = .allocate(byteCount: self.capacity, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: self.capacity)
        buffer.storeBytes(of: sequenceType, toByteOffset: 4, as: UInt32.self)
        clear()
    }

    deinit { buffer.deallocate() }

    /// Empties the sequence.
    public func clear() {
        used = 16
        buffer.storeBytes(of: UInt32(8), as: UInt32.self)
    }

    /// Appends a MIDI message of up to 3 bytes at `frame`; false when full.
    @discardableResult
    public func append(frame: Int64, midi bytes: (UInt8, UInt8, UInt8), count: Int = 3) -> Bool {
        guard used + 24 <= capacity else { return false }
        buffer.storeBytes(of: frame, toByteOffset: used, as: Int64.self)
        buffer.storeBytes(of: UInt32(count), toByteOffset: used + 8, as: UInt32.self)
        buffer.storeBytes(of: midiEvent, toByteOffset: used + 12, as: UInt32.self)
        buffer.storeBytes(of: bytes.0, toByteOffset: used + 16, as: UInt8.self)
        buffer.storeBytes(of: bytes.1, toByteOffset: used + 17, as: UInt8.self)
        buffer.storeBytes(of: bytes.2, toByteOffset: used + 18, as: UInt8.self)
        used += 24
        buffer.storeBytes(of: UInt32(used - 8), as: UInt32.self)
        return true
    }
}
