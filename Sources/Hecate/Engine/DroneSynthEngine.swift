import Ariel
import Horatio
import Touchstone

/// Hecate's face-controlled chord synthesizer, as an Ariel `AudioEngine`.
///
/// Signal chain (the topology never changes; a `VoicePreset` only sets its numbers):
///
///     6 tone banks (root, third, fifth, seventh, ninth, octave; 3 detuned oscillators each)
///       + sub-bass (chord root −1 octave, sine) + bass voice (chord root in 55…110 Hz)
///       × breathing LFO (0.15 Hz) × master gain × face fade
///       → SVF low-pass (cutoff, resonance) → formant F1 ∥ F2 band-passes (dry/F1/F2 mix)
///       → FDN reverb → tremolo (BPM-synced) → + drone (key root + 5th, sine, × fade)
///       → spike protection → brickwall limiter (−6 / −10 / −14 dBFS)
///
/// The engine composes parts with one job each and runs them in one loop per control run:
/// - voices: `DroneToneBanks` (the six banks and their levels), `DronePedalVoices` (sub, bass, drone),
///   `DroneChordGlide` (chord and key glides), `DroneVoicingTable` (where every voice sits);
/// - movement: `DroneArpeggiator` (gates), `DroneBreathing` (the slow swell), `DroneControls`
///   (sculpt amounts and preset numbers at control rate);
/// - transitions: `FaceFade` (face lost / found), `PackChangeDip` (click-free pack swap);
/// - after the voice: `DroneEffectsChain` (filters, room, tremolo), `DroneOutputStage` (limiter, meters);
/// - beside the sound: `DroneMIDIPlayer` (what the voices play as MIDI into `midiOutbox`, ``HecateMIDIMap``).
///
/// Every value a face moves is smoothed: tone and bass levels, arpeggiator gates, the face fade and
/// chord glides per sample (one-pole, `rtOnePole`); sculpt amounts one-pole at the 3 kHz control rate
/// (every 16 samples), from which the filters ramp per sample in the pitch domain. A pack change
/// ramps its continuous numbers over about 50 ms and swaps the waveform, detune and room size inside
/// a 15 ms dip of the tone bus and reverb return, so it never clicks.
///
/// Face fade: 100 ms down, 450 ms up (S-curve, so neither end clicks). The engine starts, and
/// `prepare` and `reset` leave it, with no face in view: silent, tones and drone, until the first
/// `.face` or `.faceFound`, whose fade-in is the launch fade-in.
///
/// State changes only through `handle(_:)` with a `Command` (from `EngineHost`'s lock-free ring).
/// `render` never allocates, locks or throws. The 256-sample display waveform is `waveform`.
public final class DroneSynthEngine: AudioEngine {
    public typealias Snapshot = DroneSynthSnapshot

    // MARK: Hard-coded constants (the seed keeps these out of presets)

    /// Face fade down (face lost) and up (face found), in seconds.
    public static let fadeOutTime = 0.100
    public static let fadeInTime = 0.450
    /// Time constants of the per-sample level smoothers, in seconds.
    public static let levelSmoothingTime = 0.040
    public static let glideTime = 0.060
    public static let arpGateTime = 0.003
    public static let sculptSmoothingTime = 0.035
    public static let presetSmoothingTime = 0.050
    /// Length of each half of the pack-change dip, in seconds.
    public static let presetSwapTime = 0.015
    /// A tone takes part in the arpeggio when its face level is above this.
    public static let arpThreshold: Float = 0.15
    /// Fraction of each arpeggiator step during which the gate is open (articulation).
    public static let arpGateLength = 0.8
    /// Control ticks (sculpt smoothing, filter targets) every this many samples.
    static let controlInterval = 16
    /// Per-voice mixing gains (level 1 of one bank or voice before the filter).
    static let toneGain: Float = 0.13
    static let subGain: Float = 0.35
    static let bassGain: Float = 0.35
    static let droneGain: Float = 0.5

    // MARK: Display

    /// The last output samples (left channel) for a mini waveform; read with `readLatest` or `latest(256)`.
    public let waveform = SampleRingBuffer(minimumCapacity: 1024)

    // MARK: MIDI out

    /// What the engine plays as MIDI while `.midiOut(channel:)` is on (``HecateMIDIMap``), each message
    /// at the frame of the control tick that saw the change; drained by whoever renders the engine
    /// (the JACK handler to `midi_out`, the offline render into a MIDI file) after each block.
    public let midiOutbox = EngineMIDIOutbox(capacity: 1024)

    // MARK: Parts (audio thread)

    @exclusivity(unchecked) var tones: DroneToneBanks
    @exclusivity(unchecked) var pedals = DronePedalVoices()
    @exclusivity(unchecked) var glide = DroneChordGlide()
    @exclusivity(unchecked) var arpeggiator = DroneArpeggiator()
    @exclusivity(unchecked) var breathing = DroneBreathing()
    @exclusivity(unchecked) var controls = DroneControls()
    @exclusivity(unchecked) var fade = FaceFade()
    @exclusivity(unchecked) var dip = PackChangeDip()
    @exclusivity(unchecked) var output = DroneOutputStage()
    @exclusivity(unchecked) var midi = DroneMIDIPlayer()
    /// Whether the face was in view at the last MIDI tick (a face found resends the controllers).
    @exclusivity(unchecked) var midiSawFace = false
    let effects: DroneEffectsChain
    let stage: DroneStageBuffers
    let voicings = DroneVoicingTable()

    // MARK: Musical state (audio thread)

    @exclusivity(unchecked) var sampleRate: Double = 48_000
    @exclusivity(unchecked) var keyIndex = 0
    @exclusivity(unchecked) var degreeIndex = 0
    @exclusivity(unchecked) var bpm = 90.0
    /// Where the tempo's quarter-note beat is, 0…1 (0 on the beat), advanced per block so the display can
    /// show the tempo while neither the arpeggiator nor the tremolo makes it audible.
    @exclusivity(unchecked) var beatPhase = 0.0
    /// The pack sounding now, and the one whose waveform, detune and room wait for the dip's bottom.
    @exclusivity(unchecked) var currentPreset: VoicePreset
    @exclusivity(unchecked) var incomingPreset: VoicePreset
    /// Samples left in the current control run.
    @exclusivity(unchecked) var controlCountdown = 0
    /// Frames rendered since the engine was made (the MIDI outbox's clock; never reset).
    @exclusivity(unchecked) var framePosition: Int64 = 0

    /// - Parameters:
    ///   - preset: the starting voice (default: the Cathedral pack's).
    ///   - key: the starting key; the chord starts on I.
    public init(preset: VoicePreset = SoundPack.cathedral.preset, key: MusicalKey = .c) {
        currentPreset = preset
        incomingPreset = preset
        keyIndex = key.rawValue
        tones = DroneToneBanks(waveform: Self.waveform(preset.waveform), detuneCents: Float(preset.detuneCents))
        stage = DroneStageBuffers(capacity: 256)
        effects = DroneEffectsChain(capacity: 256)
        controls.setPresetTargets(preset)
        controls.snap()
        updateToneTargets()
        tones.snapLevels()
    }

    // MARK: AudioEngine

    public func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        stage.reserve(spec.maximumBlockSize)
        tones.prepare(spec)
        pedals.prepare(spec)
        breathing.prepare(spec)
        effects.prepare(spec, controlTime: Double(Self.controlInterval) / spec.sampleRate, preset: currentPreset)
        output.prepare(spec)
        glide.prepare(sampleRate: spec.sampleRate)
        controls.prepare(controlRate: spec.sampleRate / Double(Self.controlInterval))
        midi.prepare(controlRate: spec.sampleRate / Double(Self.controlInterval))
        fade.prepare(sampleRate: spec.sampleRate, down: Self.fadeOutTime, up: Self.fadeInTime)
        dip.prepare(sampleRate: spec.sampleRate, halfTime: Self.presetSwapTime)
        applyDiscrete(currentPreset)
        updateTempo()
        reset()
    }

    /// Clears every voice, effect and meter, lands every glide and smoother on its target and leaves
    /// the engine silent with no face in view (a pack change in flight completes at once).
    public func reset() {
        tones.reset(gateTargets: arpeggiator.gateTargets)
        pedals.reset()
        breathing.reset()
        effects.reset()
        output.reset()
        retune()
        glide.snap(tones: &tones, pedals: &pedals)
        controls.snap()
        effects.follow(controls)
        fade.reset()
        if dip.isFalling {
            applyDiscrete(incomingPreset)
        } else if dip.isAtBottom {
            applyRoom(incomingPreset)
        }
        dip.reset()
        controlCountdown = 0
    }

    // MARK: State updates (audio thread, from commands and control ticks)

    /// Level targets from the face levels and the smile's shimmer (up to the brightness cap), and the
    /// arpeggiator's gates, which follow which tones are active.
    func updateToneTargets() {
        let cap = Self.unit(Float(currentPreset.brightnessCap))
        tones.updateTargets(shimmer: controls.sculpt[DroneControls.Sculpt.brightness] * cap)
        if arpeggiator.isOn { arpeggiator.updateGateTargets(faceLevels: tones.faceLevels) }
    }

    /// Glides every voice to the current key and chord.
    func retune() {
        glide.retune(to: voicings.row(key: keyIndex, degree: degreeIndex))
    }

    /// Arpeggiator step and tremolo period from the tempo.
    func updateTempo() {
        arpeggiator.setTempo(bpm: bpm, sampleRate: sampleRate)
        effects.setTempo(bpm: bpm)
    }
}
