/// One raw MIDI message received in the current JACK period.
///
/// `bytes` points into JACK's port buffer and is valid only during the
/// `process` call that received it: copy what you keep.
public struct JACKMIDIEvent {
    /// Frame offset within the current period, 0 ..< frameCount.
    public var frame: Int
    /// The complete message (JACK MIDI never uses running status).
    public var bytes: UnsafeBufferPointer<UInt8>

    @inlinable
    public init(frame: Int, bytes: UnsafeBufferPointer<UInt8>) {
        self.frame = frame
        self.bytes = bytes
    }

    /// The status byte, or 0 for an empty event.
    @inlinable public var status: UInt8 { bytes.isEmpty ? 0 : bytes[0] }
    /// The first data byte, or 0 when absent.
    @inlinable public var data1: UInt8 { bytes.count > 1 ? bytes[1] : 0 }
    /// The second data byte, or 0 when absent.
    @inlinable public var data2: UInt8 { bytes.count > 2 ? bytes[2] : 0 }
}
