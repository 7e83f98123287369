/// What Hecate's display shows, copied from the audio thread about 30 times a second.
///
/// Fixed-size fields only (no arrays), so publishing one never allocates. The 256-sample mini
/// waveform travels separately through `DroneSynthEngine.waveform` (a `SampleRingBuffer`).
public struct DroneSynthSnapshot: Sendable, Hashable {
    /// Current amplitude of each tone bank (smoothed level × arpeggiator gate), 0…1.
    public var root: Float = 0
    public var third: Float = 0
    public var fifth: Float = 0
    public var seventh: Float = 0
    public var ninth: Float = 0
    public var octave: Float = 0
    /// Bass voice amplitude, 0…1.
    public var bass: Float = 0
    /// Tremolo LFO phase, 0…1.
    public var tremoloPhase: Float = 0
    /// The tempo's quarter-note beat phase, 0…1 (0 on the beat).
    public var beatPhase: Float = 0
    /// Breathing LFO phase, 0…1.
    public var breathPhase: Float = 0
    /// Octave shimmer amplitude (the smile), 0…brightness cap.
    public var shimmer: Float = 0
    /// Low-pass cutoff within the preset's range, 0 (minimum) … 1 (maximum), on a pitch scale.
    public var filterSweep: Float = 0
    /// Output RMS, smoothed per snapshot as 0.7 × previous + 0.3 × new.
    public var rms: Float = 0
    /// Highest output sample since the previous snapshot, linear.
    public var peak: Float = 0
    /// Face-lost fade gain, 0…1.
    public var faceFade: Float = 0
    /// Arpeggiator step 0…7 (meaningful while `arpeggiatorOn`).
    public var arpeggiatorStep: Int = 0
    public var arpeggiatorOn: Bool = false
    /// The key the engine plays in (`MusicalKey.rawValue`, 0 = C … 11 = B) and the chord on the
    /// chord bar (`NashvilleDegree.rawValue`, 1 = I … 7 = vii°): what a UI shows as sounding, read back
    /// from the audio thread rather than assumed from the commands it sent.
    public var key: Int = 0
    public var chord: Int = 1
    /// Limiter ceiling (dBFS) and current gain reduction (dB, ≥ 0).
    public var limiterCeiling: Float = -6
    public var gainReduction: Float = 0

    public init() {}
}
