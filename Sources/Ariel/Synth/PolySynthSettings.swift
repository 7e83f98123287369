/// Every setting of `PolySynth`, as one Codable value (a preset, a CLI, a settings screen).
///
/// Ranges are checked by `validate()`, which names the first field out of range. The audio thread
/// never throws: `PolySynth` clamps whatever reaches it through a command into the same ranges.
///
/// Musical mappings (documented here because the seed states them loosely):
/// - `portamento` 0…1 is a knob, mapped quadratically to a glide time of `portamento²` seconds
///   (0.5 → 250 ms, 1 → 1 s); 0 turns portamento off. A new note glides from the pitch of the
///   previously started note, whichever voice plays it.
/// - `lfoDepth` 0…1 is the modulation depth (also set live by CC 1, the mod wheel, which overrides
///   it until the next settings change). At depth 1 vibrato swings ±0.4 semitones and tremolo
///   swings the level by 80 % (from 1 down to 0.2). `lfoMode` picks which one the LFO drives: this is
///   our reading of the seed's "vibrato or tremolo, switchable via CC 1": the mode is a setting, the
///   mod wheel sets how much.
/// - Velocity: gain = (1 − s) + s·(velocity/127)², s = `velocitySensitivity` (0 = every note at full level).
/// - `waveform` applies to notes started after the change, so a sounding note never jumps shape.
public struct PolySynthSettings: Sendable, Hashable, Codable {
    /// The oscillator shape of every voice.
    public enum Waveform: String, Sendable, Hashable, Codable, CaseIterable {
        case sine, saw, triangle, square
    }

    /// What the LFO modulates.
    public enum LFOMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Pitch, ±0.4 semitones at depth 1.
        case vibrato
        /// Level, 0…80 % depth.
        case tremolo
    }

    /// One-pole low-pass tone control.
    public struct Tone: Sendable, Hashable, Codable {
        public var enabled: Bool
        /// Cutoff in Hz, 20…20 000.
        public var cutoff: Double
        public init(enabled: Bool = false, cutoff: Double = 6_000) {
            self.enabled = enabled
            self.cutoff = cutoff
        }
    }

    /// tanh saturation.
    public struct Fuzz: Sendable, Hashable, Codable {
        public var enabled: Bool
        /// Pre-gain in dB, 0…48.
        public var drive: Double
        /// Wet level in dB, −48…12.
        public var level: Double
        /// Dry/wet, 0…1.
        public var mix: Double
        public init(enabled: Bool = false, drive: Double = 12, level: Double = -6, mix: Double = 1) {
            self.enabled = enabled
            self.drive = drive
            self.level = level
            self.mix = mix
        }
    }

    /// Stereo feedback delay (Hermite interpolation).
    public struct Delay: Sendable, Hashable, Codable {
        public var enabled: Bool
        /// Delay time in seconds, 0.001…2.
        public var time: Double
        /// Feedback, 0…0.95.
        public var feedback: Double
        /// Dry/wet, 0…1.
        public var mix: Double
        /// In-loop low-pass in Hz, 200…20 000 (20 000 = no damping).
        public var damping: Double
        /// Extra delay of the right channel in seconds, −0.05…0.05 (stereo width; ignored in mono).
        public var stereoOffset: Double
        public init(enabled: Bool = false, time: Double = 0.375, feedback: Double = 0.35, mix: Double = 0.25,
                    damping: Double = 6_000, stereoOffset: Double = 0.012) {
            self.enabled = enabled
            self.time = time
            self.feedback = feedback
            self.mix = mix
            self.damping = damping
            self.stereoOffset = stereoOffset
        }
    }

    /// Feedback-delay-network reverb.
    public struct Reverb: Sendable, Hashable, Codable {
        public var enabled: Bool
        /// RT60 in seconds, 0.1…30.
        public var decay: Double
        /// Room size scale, 0.25…4 (applied at once: change it between notes).
        public var size: Double
        /// High-frequency damping, 0…1.
        public var damping: Double
        /// Input diffusion, 0…0.75.
        public var diffusion: Double
        /// Dry/wet, 0…1.
        public var mix: Double
        public init(enabled: Bool = false, decay: Double = 2, size: Double = 1, damping: Double = 0.4,
                    diffusion: Double = 0.6, mix: Double = 0.25) {
            self.enabled = enabled
            self.decay = decay
            self.size = size
            self.damping = damping
            self.diffusion = diffusion
            self.mix = mix
        }
    }

    /// Voices that may sound at once, 1…the synth's capacity (at most 256).
    public var polyphony: Int = 16
    public var waveform: Waveform = .saw
    /// 0…1; glide time = portamento² seconds, 0 = off.
    public var portamento: Double = 0
    /// Seconds, 0…20.
    public var attack: Double = 0.005
    /// Seconds, 0…20.
    public var decay: Double = 0.2
    /// Level 0…1.
    public var sustain: Double = 0.8
    /// Seconds, 0…20.
    public var release: Double = 0.3
    public var lfoMode: LFOMode = .vibrato
    /// LFO rate in Hz, 0.05…20.
    public var lfoRate: Double = 5.5
    /// 0…1 (CC 1 sets it live).
    public var lfoDepth: Double = 0
    /// 0…1.
    public var velocitySensitivity: Double = 0.7
    /// Pitch-bend range in semitones each way, 0…24.
    public var pitchBendRange: Double = 2
    /// Tuning of A4 in Hz, 400…480.
    public var tuning: Double = 440
    /// Stereo (voices spread, stereo effects) or mono (both channels identical).
    public var stereo: Bool = true
    /// How far voices spread across the stereo field, 0…1 (1 = voices up to ±30 % off centre).
    public var stereoSpread: Double = 0.5
    public var tone = Tone()
    public var fuzz = Fuzz()
    public var delay = Delay()
    public var reverb = Reverb()
    /// Output gain before the limiter in dB, −60…12.
    public var outputGain: Double = 0
    /// Limiter ceiling in dBFS, −60…0.
    public var ceiling: Double = -1

    public init() {}

    /// Throws a `PolySynthSettingsError` naming the first field that is out of range or not finite.
    public func validate(capacity: Int = PolySynth.maximumCapacity) throws(PolySynthSettingsError) {
        func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws(PolySynthSettingsError) {
            guard value.isFinite, range.contains(value) else {
                throw PolySynthSettingsError(field: field, value: value, range: range)
            }
        }
        try check("polyphony", Double(polyphony), 1...Double(max(1, min(capacity, PolySynth.maximumCapacity))))
        try check("portamento", portamento, Ranges.portamento)
        try check("attack", attack, Ranges.attack)
        try check("decay", decay, Ranges.decay)
        try check("sustain", sustain, Ranges.sustain)
        try check("release", release, Ranges.release)
        try check("lfoRate", lfoRate, Ranges.lfoRate)
        try check("lfoDepth", lfoDepth, Ranges.lfoDepth)
        try check("velocitySensitivity", velocitySensitivity, Ranges.velocitySensitivity)
        try check("pitchBendRange", pitchBendRange, Ranges.pitchBendRange)
        try check("tuning", tuning, Ranges.tuning)
        try check("stereoSpread", stereoSpread, Ranges.stereoSpread)
        try check("tone.cutoff", tone.cutoff, Ranges.toneCutoff)
        try check("fuzz.drive", fuzz.drive, Ranges.fuzzDrive)
        try check("fuzz.level", fuzz.level, Ranges.fuzzLevel)
        try check("fuzz.mix", fuzz.mix, Ranges.fuzzMix)
        try check("delay.time", delay.time, Ranges.delayTime)
        try check("delay.feedback", delay.feedback, Ranges.delayFeedback)
        try check("delay.mix", delay.mix, Ranges.delayMix)
        try check("delay.damping", delay.damping, Ranges.delayDamping)
        try check("delay.stereoOffset", delay.stereoOffset, Ranges.delayStereoOffset)
        try check("reverb.decay", reverb.decay, Ranges.reverbDecay)
        try check("reverb.size", reverb.size, Ranges.reverbSize)
        try check("reverb.damping", reverb.damping, Ranges.reverbDamping)
        try check("reverb.diffusion", reverb.diffusion, Ranges.reverbDiffusion)
        try check("reverb.mix", reverb.mix, Ranges.reverbMix)
        try check("outputGain", outputGain, Ranges.outputGain)
        try check("ceiling", ceiling, Ranges.ceiling)
    }

    /// The same settings with every number clamped into its range (non-finite values take the default).
    public func clamped(capacity: Int = PolySynth.maximumCapacity) -> PolySynthSettings {
        let d = PolySynthSettings()
        func c(_ v: Double, _ r: ClosedRange<Double>, _ fallback: Double) -> Double {
            v.isFinite ? min(max(v, r.lowerBound), r.upperBound) : fallback
        }
        var s = self
        s.polyphony = min(max(polyphony, 1), max(1, min(capacity, PolySynth.maximumCapacity)))
        s.portamento = c(portamento, Ranges.portamento, d.portamento)
        s.attack = c(attack, Ranges.attack, d.attack)
        s.decay = c(decay, Ranges.decay, d.decay)
        s.sustain = c(sustain, Ranges.sustain, d.sustain)
        s.release = c(release, Ranges.release, d.release)
        s.lfoRate = c(lfoRate, Ranges.lfoRate, d.lfoRate)
        s.lfoDepth = c(lfoDepth, Ranges.lfoDepth, d.lfoDepth)
        s.velocitySensitivity = c(velocitySensitivity, Ranges.velocitySensitivity, d.velocitySensitivity)
        s.pitchBendRange = c(pitchBendRange, Ranges.pitchBendRange, d.pitchBendRange)
        s.tuning = c(tuning, Ranges.tuning, d.tuning)
        s.stereoSpread = c(stereoSpread, Ranges.stereoSpread, d.stereoSpread)
        s.tone.cutoff = c(tone.cutoff, Ranges.toneCutoff, d.tone.cutoff)
        s.fuzz.drive = c(fuzz.drive, Ranges.fuzzDrive, d.fuzz.drive)
        s.fuzz.level = c(fuzz.level, Ranges.fuzzLevel, d.fuzz.level)
        s.fuzz.mix = c(fuzz.mix, Ranges.fuzzMix, d.fuzz.mix)
        s.delay.time = c(delay.time, Ranges.delayTime, d.delay.time)
        s.delay.feedback = c(delay.feedback, Ranges.delayFeedback, d.delay.feedback)
        s.delay.mix = c(delay.mix, Ranges.delayMix, d.delay.mix)
        s.delay.damping = c(delay.damping, Ranges.delayDamping, d.delay.damping)
        s.delay.stereoOffset = c(delay.stereoOffset, Ranges.delayStereoOffset, d.delay.stereoOffset)
        s.reverb.decay = c(reverb.decay, Ranges.reverbDecay, d.reverb.decay)
        s.reverb.size = c(reverb.size, Ranges.reverbSize, d.reverb.size)
        s.reverb.damping = c(reverb.damping, Ranges.reverbDamping, d.reverb.damping)
        s.reverb.diffusion = c(reverb.diffusion, Ranges.reverbDiffusion, d.reverb.diffusion)
        s.reverb.mix = c(reverb.mix, Ranges.reverbMix, d.reverb.mix)
        s.outputGain = c(outputGain, Ranges.outputGain, d.outputGain)
        s.ceiling = c(ceiling, Ranges.ceiling, d.ceiling)
        return s
    }

    /// Glide time in seconds for the `portamento` knob: portamento², 0 = off.
    public static func glideTime(portamento: Double) -> Double {
        let p = portamento.isFinite ? min(max(portamento, 0), 1) : 0
        return p * p
    }
}
