import Ariel

/// Reads an LV2 atom sequence (`atom:Sequence` with frame time stamps) in place: the MIDI events and
/// the host's tempo, never allocating. Layout (LV2 atom spec): an 8-byte atom header (size, type), an
/// 8-byte sequence body header (unit, pad), then events of an 8-byte frame time, an 8-byte atom header
/// and the body, each event padded to 8 bytes; `size` counts everything after the first header.
public struct LV2AtomSequence {
    public let base: UnsafeRawPointer

    public init(_ base: UnsafeRawPointer) { self.base = base }

    /// Calls `body(frame, type, bodyPointer, bodySize)` for every event in order.
    @inline(__always)
    public func forEachEvent(_ body: (Int64, UInt32, UnsafeRawPointer, Int) -> Void) {
        let size = Int(base.loadUnaligned(as: UInt32.self))
        let end = 8 + size
        var offset = 16
        while offset + 16 <= end {
            let frames = base.loadUnaligned(fromByteOffset: offset, as: Int64.self)
            let atomSize = Int(base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
            let atomType = base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
            guard offset + 16 + atomSize <= end else { return }
            body(frames, atomType, base + offset + 16, atomSize)
            offset += 16 + ((atomSize + 7) & ~7)
        }
    }

    /// The MIDI message in a `midi:MidiEvent` body (nil for SysEx, running status or malformed bytes).
    @inline(__always)
    public static func midiMessage(_ body: UnsafeRawPointer, size: Int) -> MIDIShortMessage? {
        guard size >= 1 else { return nil }
        let status = body.load(as: UInt8.self)
        let data1: UInt8 = size > 1 ? body.load(fromByteOffset: 1, as: UInt8.self) : 0
        let data2: UInt8 = size > 2 ? body.load(fromByteOffset: 2, as: UInt8.self) : 0
        return MIDIShortMessage(status: status, data1: data1, data2: data2)
    }

    /// `time:beatsPerMinute` in a `time:Position` object body, if present (Float, Double, Int or Long).
    /// Object body: id (4), otype (4), then properties of key (4), context (4), atom header (8), value, padded.
    public static func beatsPerMinute(_ body: UnsafeRawPointer, size: Int, uris: LV2URIDs) -> Double? {
        guard size >= 8, body.loadUnaligned(fromByteOffset: 4, as: UInt32.self) == uris.timePosition else { return nil }
        var offset = 8
        while offset + 16 <= size {
            let key = body.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let valueSize = Int(body.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
            let valueType = body.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
            let value = offset + 16
            guard value + valueSize <= size else { return nil }
            if key == uris.timeBeatsPerMinute {
                switch valueType {
                case uris.atomFloat where valueSize >= 4: return Double(body.loadUnaligned(fromByteOffset: value, as: Float.self))
                case uris.atomDouble where valueSize >= 8: return body.loadUnaligned(fromByteOffset: value, as: Double.self)
                case uris.atomInt where valueSize >= 4: return Double(body.loadUnaligned(fromByteOffset: value, as: Int32.self))
                case uris.atomLong where valueSize >= 8: return Double(body.loadUnaligned(fromByteOffset: value, as: Int64.self))
                default: return nil
                }
            }
            offset = value + ((valueSize + 7) & ~7)
        }
        return nil
    }
}
