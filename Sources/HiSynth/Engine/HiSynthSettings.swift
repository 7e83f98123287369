/// Everything `HiSynthEngine` plays with, in engine units, as one fixed-size value: no strings or
/// arrays, so it crosses the command ring without touching the heap on the audio thread.
///
/// Made from a `HiSynthPreset` by `init(preset:)`, which clamps every value with the ranges the preset
/// model declares (the codec keeps out-of-range values exactly; the engine clamps them here).
public struct HiSynthSettings: Sendable, Hashable {
    /// One oscillator layer.
    public struct Layer: Sendable, Hashable {
        public var waveform: HiSynthWaveform
        /// Amplitude factor, 0…1.
        public var level: Float
        /// Semitones added to the MIDI note before the Int8 truncation, −12…12.
        public var pitch: Float

        public init(waveform: HiSynthWaveform, level: Float, pitch: Float) {
            self.waveform = waveform
            self.level = level
            self.pitch = pitch
        }
    }

    /// The shared ADSR (seconds, linear sustain).
    public struct Envelope: Sendable, Hashable {
        public var attack: Double
        public var decay: Double
        public var sustain: Double
        public var release: Double

        public init(attack: Double, decay: Double, sustain: Double, release: Double) {
            self.attack = attack
            self.decay = decay
            self.sustain = sustain
            self.release = release
        }
    }

    /// One resonant 2-pole filter.
    public struct Filter: Sendable, Hashable {
        /// Base cutoff in Hz, 0…22 050. The LFO offsets scale it (0 means no modulation, as in the
        /// original); the filter itself runs at no less than the range's lower bound (10 Hz).
        public var cutoff: Float
        /// Gain at cutoff in dB, −20…40 (Q = 10^(dB/20)).
        public var resonance: Float

        public init(cutoff: Float, resonance: Float) {
            self.cutoff = cutoff
            self.resonance = resonance
        }
    }

    /// One LFO and its row of the modulation matrix.
    public struct LFO: Sendable, Hashable {
        public var waveform: HiSynthWaveform
        /// 0…1.
        public var depth: Float
        /// Hz, 0.25…20.
        public var speed: Double
        /// Cycles, 0…1.
        public var phase: Double
        public var pitch: Bool
        public var amplitude: Bool
        public var filterLow: Bool
        public var filterHigh: Bool

        public init(waveform: HiSynthWaveform = .sine, depth: Float = 0, speed: Double = 2, phase: Double = 0,
                    pitch: Bool = false, amplitude: Bool = false, filterLow: Bool = false, filterHigh: Bool = false) {
            self.waveform = waveform
            self.depth = depth
            self.speed = speed
            self.phase = phase
            self.pitch = pitch
            self.amplitude = amplitude
            self.filterLow = filterLow
            self.filterHigh = filterHigh
        }
    }

    /// The four effects, in engine units.
    public struct Effects: Sendable, Hashable {
        public var decimatorOn = false
        /// Decimation in percent, 0…30.
        public var decimatorRate: Float = 20
        /// Wet share 0…1 (the UI's percent / 100).
        public var decimatorMix: Float = 0.5
        public var driveOn = false
        /// Soft-clip pre-gain in dB, −40…20.
        public var driveGain: Float = 10
        /// Wet share 0…1.
        public var driveMix: Float = 0.5
        public var delayOn = false
        /// Feedback 0…1 (the UI's percent / 100).
        public var delayFeedback: Float = 0.5
        /// Seconds, 0…2.
        public var delayTime: Float = 0.5
        /// Wet share 0…1.
        public var delayMix: Float = 0.5
        public var reverbOn = false
        public var reverbVariant: HiSynthReverbVariant = .mediumRoom
        /// Wet share 0…1 (0 while off: the original's "off" sets wet/dry to 0).
        public var reverbMix: Float = 0.5

        public init() {}
    }

    public var layer1: Layer
    public var layer2: Layer
    public var envelope: Envelope
    public var lowPass: Filter
    public var highPass: Filter
    public var lfo1: LFO
    public var lfo2: LFO
    public var lfo3: LFO
    public var effects: Effects

    /// The start-up values of the original (spec §1): sine/sine at 0.75, A 0 D 0.5 S 1 R 0.05,
    /// LP 22 000 Hz, HP 0 (clamped to 10), resonance 0, LFOs sine depth 0 speed 2, effects off.
    public init() {
        layer1 = Layer(waveform: .sine, level: 0.75, pitch: 0)
        layer2 = Layer(waveform: .sine, level: 0.75, pitch: 0)
        envelope = Envelope(attack: 0, decay: 0.5, sustain: 1, release: 0.05)
        lowPass = Filter(cutoff: 22_000, resonance: 0)
        highPass = Filter(cutoff: 0, resonance: 0)
        lfo1 = LFO()
        lfo2 = LFO()
        lfo3 = LFO()
        effects = Effects()
    }

    /// LFO `index` 0…2.
    public subscript(lfo index: Int) -> LFO {
        get {
            switch index {
            case 0: lfo1
            case 1: lfo2
            default: lfo3
            }
        }
        set {
            switch index {
            case 0: lfo1 = newValue
            case 1: lfo2 = newValue
            default: lfo3 = newValue
            }
        }
    }

    /// Layer `index` 0…1.
    public subscript(layer index: Int) -> Layer {
        get { index == 0 ? layer1 : layer2 }
        set { if index == 0 { layer1 = newValue } else { layer2 = newValue } }
    }
}
