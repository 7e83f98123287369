/// A MIDI 1.0 message of at most three bytes (every message except SysEx), stored inline.
///
/// Trivial to copy, with no reference counting, so it can live in the preallocated event buffers of
/// the real-time path (sequencer output, MIDI out rings, JACK buffers). Always valid: the status byte
/// is a defined non-SysEx status and the data bytes are 7-bit; unused data bytes are zero.
@frozen
public struct MIDIShortMessage: Sendable, Hashable, CustomStringConvertible {
    public let status: UInt8
    public let data1: UInt8
    public let data2: UInt8

    /// Validates and builds a message. Nil when `status` is not a defined status byte other than
    /// F0/F7, or a used data byte is above 127. Unused data bytes are ignored (stored as zero).
    @inlinable
    public init?(status: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
        let n = MIDIShortMessage.dataByteCount(forStatus: status)
        guard n >= 0 else { return nil }
        guard n < 1 || data1 < 0x80, n < 2 || data2 < 0x80 else { return nil }
        self.status = status
        self.data1 = n >= 1 ? data1 : 0
        self.data2 = n >= 2 ? data2 : 0
    }

    @usableFromInline
    init(unchecked status: UInt8, _ data1: UInt8, _ data2: UInt8) {
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// Number of data bytes that follow `status`, or −1 for bytes that do not start a short
    /// message (data bytes, F0 SysEx, F7 EOX and the undefined F4, F5, F9, FD).
    @inlinable
    public static func dataByteCount(forStatus status: UInt8) -> Int {
        switch status {
        case 0x80...0xBF, 0xE0...0xEF: return 2
        case 0xC0...0xDF: return 1
        case 0xF1, 0xF3: return 1
        case 0xF2: return 2
        case 0xF6, 0xF8, 0xFA, 0xFB, 0xFC, 0xFE, 0xFF: return 0
        default: return -1
        }
    }

    /// Bytes on the wire including the status byte: 1…3.
    @inlinable public var count: Int { 1 + MIDIShortMessage.dataByteCount(forStatus: status) }

    /// True for channel voice messages (0x80…0xEF).
    @inlinable public var isChannelMessage: Bool { status < 0xF0 }

    /// The channel of a channel voice message.
    @inlinable public var channel: MIDIChannel? {
        status < 0xF0 ? MIDIChannel(unchecked: status & 0x0F) : nil
    }

    /// Writes the 1…3 bytes into `buffer` without allocating. Returns the number of bytes
    /// written, or 0 when the buffer is too small (nothing is written then).
    @inlinable
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = count
        guard buffer.count >= n else { return 0 }
        buffer[0] = status
        if n > 1 { buffer[1] = data1 }
        if n > 2 { buffer[2] = data2 }
        return n
    }

    /// The wire bytes (allocates; use `encode(into:)` on the real-time path).
    public var bytes: [UInt8] { Array([status, data1, data2].prefix(count)) }

    public var description: String {
        bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
