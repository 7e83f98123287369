/// The body of a System Exclusive message: the bytes between 0xF0 and 0xF7, all 7-bit
/// (manufacturer ID first). Building one checks every byte.
public struct MIDISystemExclusive: Sendable, Hashable {
    /// Bytes between F0 and F7, each 0…127.
    public let payload: [UInt8]

    /// A SysEx body, or nil when a byte has its high bit set (it would be read as a status byte).
    public init?(payload: [UInt8]) {
        guard payload.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.payload = payload
    }

    @usableFromInline
    init(unchecked payload: [UInt8]) { self.payload = payload }

    /// The wire length including F0 and F7.
    public var encodedCount: Int { payload.count + 2 }
}
