/// A Standard MIDI File (SMF): format 0 (one track), 1 (simultaneous tracks, tempo map in the first)
/// or 2 (independent sequences), with its time division and tracks.
///
/// Read with `init(decoding:)`, write with `encoded(runningStatus:)`, convert ticks to seconds with
/// `tempoMap`, play with `MIDISequencer`.
public struct MIDIFile: Sendable, Hashable {
    public enum Format: Int, Sendable, Hashable, Codable {
        case singleTrack = 0
        case multiTrack = 1
        case multiSequence = 2
    }

    /// How delta ticks relate to time.
    public enum Division: Sendable, Hashable {
        /// Musical time: ticks per quarter note (1…32767); seconds depend on the tempo events.
        case ticksPerQuarterNote(Int)
        /// Absolute time: SMPTE frames per second (24, 25, 29 = 29.97 drop-frame, 30) × ticks per frame.
        case smpte(framesPerSecond: Int, ticksPerFrame: Int)

        /// Ticks per second for SMPTE division (29 means 30000/1001 frames per second), nil for PPQN.
        public var ticksPerSecond: Double? {
            guard case .smpte(let fps, let tpf) = self else { return nil }
            let rate = fps == 29 ? 30_000.0 / 1001 : Double(fps)
            return rate * Double(tpf)
        }

        var rawValue: UInt16 {
            switch self {
            case .ticksPerQuarterNote(let t): return UInt16(clamping: t) & 0x7FFF
            case .smpte(let fps, let tpf): return UInt16(UInt8(bitPattern: Int8(clamping: -fps))) << 8 | UInt16(UInt8(clamping: tpf))
            }
        }
    }

    public var format: Format
    public var division: Division
    public var tracks: [MIDIFileTrack]

    public init(format: Format = .multiTrack, division: Division = .ticksPerQuarterNote(480), tracks: [MIDIFileTrack] = []) {
        self.format = format
        self.division = division
        self.tracks = tracks
    }

    /// The tempo map of the file (format 0/1: tempo events of every track; format 2: of track 0).
    public var tempoMap: MIDITempoMap { MIDITempoMap(file: self) }
}
