/// One event of a track: a delta time in ticks since the previous event and what happens.
public struct MIDIFileEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A channel voice message. When writing, system common and real-time messages are stored
        /// as F7 escape events, the only place the format allows them.
        case message(MIDIMessage)
        /// An F0 SysEx event: the bytes after the length, normally ending with F7.
        case sysEx([UInt8])
        /// An F7 escape event: any bytes (SysEx continuation packets, real-time or common messages).
        case escape([UInt8])
        case meta(MIDIMetaEvent)
    }

    /// Ticks since the previous event of the same track (0…0x0FFFFFFF).
    public var delta: Int
    public var kind: Kind

    public init(delta: Int, _ kind: Kind) {
        self.delta = delta
        self.kind = kind
    }

    public static func message(_ m: MIDIMessage, delta: Int = 0) -> MIDIFileEvent { MIDIFileEvent(delta: delta, .message(m)) }
    public static func meta(_ m: MIDIMetaEvent, delta: Int = 0) -> MIDIFileEvent { MIDIFileEvent(delta: delta, .meta(m)) }
}
