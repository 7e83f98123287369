/// Why bytes are not a Standard MIDI File this package can read (or a file cannot be written),
/// with where it went wrong: the track index (0-based, counting MTrk chunks) and the byte offset
/// from the start of the file.
public struct MIDIFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The file does not start with an MThd chunk.
        case missingHeader
        /// MThd declares fewer than 6 bytes, or the file ends inside it.
        case truncatedHeader(declaredLength: Int, available: Int)
        /// Format other than 0, 1 or 2.
        case unsupportedFormat(Int)
        /// Format 0 must hold exactly one track.
        case formatZeroTrackCount(Int)
        /// Zero ticks per quarter note, an SMPTE rate other than 24, 25, 29 (29.97 drop) or 30,
        /// or zero ticks per frame.
        case invalidDivision(UInt16)
        /// A chunk declares more bytes than the file has left.
        case chunkOverrunsFile(chunk: String, declaredLength: Int, available: Int)
        /// The header promises more MTrk chunks than the file holds.
        case missingTracks(declared: Int, found: Int)
        /// A variable-length quantity longer than 4 bytes.
        case badVariableLengthQuantity
        /// The track chunk ends inside an event (`what` names the part that was cut).
        case truncatedEvent(String)
        /// A data byte where a status byte was needed and no running status applies
        /// (at the track start or right after a SysEx event).
        case runningStatusWithoutStatus
        /// A status byte that cannot appear in a file (F1…F6, F8…FE).
        case invalidStatusByte(UInt8)
        /// A channel message data byte with its high bit set.
        case dataByteOutOfRange(UInt8)
        /// Writing: a delta time or length outside 0…0x0FFFFFFF.
        case valueOutOfRange(Int)
        /// Writing: an event that cannot be stored (SysEx payload with a high bit set, …).
        case unwritableEvent(String)
    }

    public var reason: Reason
    /// Track index (0-based MTrk chunk), nil for the header and chunk framing.
    public var track: Int?
    /// Byte offset from the start of the file (for writing: the event index in the track).
    public var offset: Int

    public init(_ reason: Reason, track: Int? = nil, offset: Int) {
        self.reason = reason
        self.track = track
        self.offset = offset
    }

    public var description: String {
        let place = track.map { "track \($0) at byte \(offset)" } ?? "byte \(offset)"
        func hex(_ b: UInt8) -> String { "0x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
        let why: String
        switch reason {
        case .missingHeader: why = "no MThd header chunk; not a Standard MIDI File"
        case .truncatedHeader(let d, let a): why = "MThd header declares \(d) bytes, needs 6, file has \(a)"
        case .unsupportedFormat(let f): why = "format \(f) is not 0, 1 or 2"
        case .formatZeroTrackCount(let n): why = "format 0 declares \(n) tracks, must be 1"
        case .invalidDivision(let d): why = "invalid time division 0x\(String(d, radix: 16, uppercase: true))"
        case .chunkOverrunsFile(let c, let d, let a): why = "chunk '\(c)' declares \(d) bytes but only \(a) remain"
        case .missingTracks(let d, let f): why = "header declares \(d) tracks but the file holds \(f)"
        case .badVariableLengthQuantity: why = "variable-length quantity longer than 4 bytes"
        case .truncatedEvent(let what): why = "track ends inside \(what)"
        case .runningStatusWithoutStatus: why = "running status with no previous status"
        case .invalidStatusByte(let b): why = "status byte \(hex(b)) cannot appear in a MIDI file"
        case .dataByteOutOfRange(let b): why = "data byte \(hex(b)) has its high bit set"
        case .valueOutOfRange(let v): why = "value \(v) does not fit a variable-length quantity (0…268435455)"
        case .unwritableEvent(let w): why = "cannot write event: \(w)"
        }
        return "MIDI file: \(place): \(why)"
    }
}
