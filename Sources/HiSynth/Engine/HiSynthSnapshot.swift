/// What a display shows of `HiSynthEngine`, copied out of the audio thread (about 30 Hz).
public struct HiSynthSnapshot: Sendable, Hashable {
    /// Voices producing sound, both layers (0…16).
    public var soundingVoiceCount: Int
    /// Voices busy (held, releasing, or within release + 0.2 s of their note-off), both layers.
    public var busyVoiceCount: Int
    /// Held notes as bits: note n is bit n of `heldNotesLow` (n < 64) or bit n − 64 of `heldNotesHigh`.
    public var heldNotesLow: UInt64
    public var heldNotesHigh: UInt64
    /// The three LFO outputs (table × depth), −1…1.
    public var lfoValues: SIMD3<Float>
    /// Current low-pass and high-pass cutoffs, Hz.
    public var lowPassCutoff: Float
    public var highPassCutoff: Float
    /// Current filter-out gain, 0…1.
    public var amplitude: Float
    /// Highest output sample since the previous snapshot, and since the engine's reset.
    public var peak: Float
    public var peakSinceReset: Float
    /// The limiter's gain reduction, dB (≥ 0).
    public var gainReductionDecibels: Float
    /// Notes that took a voice from a sounding note (both layers count separately).
    public var stolenVoiceCount: Int
    /// Note-ons played.
    public var noteOnCount: Int

    /// Whether `note` is held.
    public func isHeld(_ note: UInt8) -> Bool {
        note < 64 ? heldNotesLow & (1 << UInt64(note)) != 0 : heldNotesHigh & (1 << UInt64(note - 64)) != 0
    }
}
