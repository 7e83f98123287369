/// Where a game's background music comes from.
public enum GameMusic: Sendable, Hashable {
    /// The generated song (`GameSong`) played by the poly synth.
    case song
    /// A user's own recording (stereo samples at `sampleRate`), looped. Resampled to the engine's rate
    /// in `prepare` (linear interpolation).
    case samples(left: [Float], right: [Float], sampleRate: Double)

    /// The loop's length in seconds.
    public var length: Double {
        switch self {
        case .song: return GameSong.length
        case .samples(let l, _, let rate): return rate > 0 ? Double(l.count) / rate : 0
        }
    }
}
