/// Every sound-shaping constant of Hecate's voice, as one Codable value.
///
/// Packs change character, never topology: the signal chain is fixed and a preset only sets the
/// numbers in it. What stays hard-coded on purpose (slew rates, face-lost fade times, spike
/// protection, arpeggiator gate slew, ring buffer sizes, limiter ceilings) is not here.
public struct VoicePreset: Hashable, Sendable, Codable {
    /// Oscillator shape of the six tone banks.
    public var waveform: OscillatorWaveform
    /// Spread of each bank's three oscillators, in cents (−d, 0, +d); 0…50.
    public var detuneCents: Double

    /// Low-pass cutoff with the head straight (cutoff amount 0), in Hz, 20…20 000.
    public var filterCutoffMin: Double
    /// Low-pass cutoff at full head turn (cutoff amount 1), in Hz, above `filterCutoffMin`.
    public var filterCutoffMax: Double
    /// Filter Q at resonance amount 0 and 1; 0.5…20.
    public var filterResonanceMin: Double
    public var filterResonanceMax: Double

    /// Formant F1 centre at amount 0 and 1, in Hz (vowel openness: closed ≈ 250, open ≈ 850).
    public var formantF1Min: Double
    public var formantF1Max: Double
    /// Formant F2 centre at amount 0 and 1, in Hz (back ≈ 800, front ≈ 2300).
    public var formantF2Min: Double
    public var formantF2Max: Double
    /// Q of both formant band-passes, 0.5…30.
    public var formantQ: Double
    /// Mix of the dry path and the two formant bands, each 0…1.
    public var formantDryMix: Double
    public var formantF1Mix: Double
    public var formantF2Mix: Double

    /// Reverb room size 0…1, decay (RT60) in seconds 0.1…20, high-frequency damping 0…1, wet mix 0…1.
    public var reverbSize: Double
    public var reverbDecay: Double
    public var reverbDamping: Double
    public var reverbMix: Double

    /// Sub-bass (one octave under the root), bass voice and drone levels, each 0…1.
    public var subLevel: Double
    public var bassLevel: Double
    public var droneLevel: Double
    /// Highest octave-shimmer level a full smile reaches, 0…1.
    public var brightnessCap: Double
    /// Breathing LFO rate in Hz (the seed's 0.15 Hz), 0.01…2, and its depth on the tone levels, 0…0.5.
    public var breathRate: Double
    public var breathDepth: Double

    public init(
        waveform: OscillatorWaveform, detuneCents: Double,
        filterCutoffMin: Double, filterCutoffMax: Double, filterResonanceMin: Double, filterResonanceMax: Double,
        formantF1Min: Double, formantF1Max: Double, formantF2Min: Double, formantF2Max: Double, formantQ: Double,
        formantDryMix: Double, formantF1Mix: Double, formantF2Mix: Double,
        reverbSize: Double, reverbDecay: Double, reverbDamping: Double, reverbMix: Double,
        subLevel: Double, bassLevel: Double, droneLevel: Double, brightnessCap: Double,
        breathRate: Double, breathDepth: Double
    ) {
        self.waveform = waveform
        self.detuneCents = detuneCents
        self.filterCutoffMin = filterCutoffMin
        self.filterCutoffMax = filterCutoffMax
        self.filterResonanceMin = filterResonanceMin
        self.filterResonanceMax = filterResonanceMax
        self.formantF1Min = formantF1Min
        self.formantF1Max = formantF1Max
        self.formantF2Min = formantF2Min
        self.formantF2Max = formantF2Max
        self.formantQ = formantQ
        self.formantDryMix = formantDryMix
        self.formantF1Mix = formantF1Mix
        self.formantF2Mix = formantF2Mix
        self.reverbSize = reverbSize
        self.reverbDecay = reverbDecay
        self.reverbDamping = reverbDamping
        self.reverbMix = reverbMix
        self.subLevel = subLevel
        self.bassLevel = bassLevel
        self.droneLevel = droneLevel
        self.brightnessCap = brightnessCap
        self.breathRate = breathRate
        self.breathDepth = breathDepth
    }
}
