/// How fast an LFO runs: free in Hz, or one period per note division at a tempo.
public enum LFORate: Sendable, Hashable, Codable {
    /// Free-running rate in Hz, 0…sampleRate/4 (0 freezes the LFO).
    case hertz(Double)
    /// One period per `division` at `bpm` quarter-note beats per minute (> 0).
    case synced(NoteDivision, bpm: Double)

    /// The rate in Hz (0 for a non-positive or non-finite tempo or rate).
    public var hertz: Double {
        switch self {
        case .hertz(let hz):
            return hz.isFinite && hz > 0 ? hz : 0
        case .synced(let division, let bpm):
            return bpm.isFinite && bpm > 0 ? division.frequency(bpm: bpm) : 0
        }
    }
}
