/// What a display shows of `PolySynth`, copied off the audio thread. Fixed-size fields only.
public struct PolySynthSnapshot: Sendable, Hashable {
    /// Voices sounding (held, sustained, releasing or fading after a steal).
    public var activeVoiceCount: Int
    /// Notes held (key down or kept by the sustain pedal), on any channel: bit n of `heldNotesLow`
    /// for notes 0…63, bit n − 64 of `heldNotesHigh` for notes 64…127.
    public var heldNotesLow: UInt64
    public var heldNotesHigh: UInt64
    /// Output peak since the previous snapshot, linear (≤ the limiter ceiling).
    public var peak: Float
    /// Output RMS since the previous snapshot, linear (both channels).
    public var rms: Float
    /// Limiter gain reduction at the end of the last block, dB ≥ 0.
    public var gainReductionDecibels: Float
    /// LFO phase 0…1.
    public var lfoPhase: Float
    /// Voices taken from sounding notes since `prepare` or `reset`.
    public var stolenVoiceCount: Int
    /// Notes started since `prepare` or `reset`.
    public var noteOnCount: Int
    /// Highest output peak since `prepare` or `reset`, linear.
    public var peakSinceReset: Float

    public init(activeVoiceCount: Int = 0, heldNotesLow: UInt64 = 0, heldNotesHigh: UInt64 = 0, peak: Float = 0,
                rms: Float = 0, gainReductionDecibels: Float = 0, lfoPhase: Float = 0, stolenVoiceCount: Int = 0,
                noteOnCount: Int = 0, peakSinceReset: Float = 0) {
        self.activeVoiceCount = activeVoiceCount
        self.heldNotesLow = heldNotesLow
        self.heldNotesHigh = heldNotesHigh
        self.peak = peak
        self.rms = rms
        self.gainReductionDecibels = gainReductionDecibels
        self.lfoPhase = lfoPhase
        self.stolenVoiceCount = stolenVoiceCount
        self.noteOnCount = noteOnCount
        self.peakSinceReset = peakSinceReset
    }

    /// Whether `note` (0…127) is held.
    public func isHeld(_ note: Int) -> Bool {
        guard (0..<128).contains(note) else { return false }
        return note < 64 ? heldNotesLow & (1 << UInt64(note)) != 0 : heldNotesHigh & (1 << UInt64(note - 64)) != 0
    }

    /// Number of held notes.
    public var heldNoteCount: Int { heldNotesLow.nonzeroBitCount + heldNotesHigh.nonzeroBitCount }
}
