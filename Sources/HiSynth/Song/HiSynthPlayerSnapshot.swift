/// What a display shows of `HiSynthSongPlayer`.
public struct HiSynthPlayerSnapshot: Sendable, Hashable {
    /// The synth's own snapshot.
    public var synth: HiSynthSnapshot
    /// Song position and length, seconds.
    public var position: Double
    public var duration: Double
    public var isPlaying: Bool
    public var isLooping: Bool
    public var tempoScale: Double
    /// The engine's running clock (samples), the time base of its note log.
    public var engineFrame: Int64
}
