import Ariel
import Foundation
import Touchstone

/// HiSynth, the two-oscillator synth of the third seed, as a sample-accurate engine (spec §1).
///
/// Signal path per block (parts with one job each):
/// 1. `HiSynthModulation`: three LFOs and the matrix, evaluated every 16 samples; the pitch offset and
///    the filter-out gain ramp linearly across each 16-sample run.
/// 2. Two `HiSynthLayer`s of eight `HiSynthVoice`s (band-limited oscillator × `HiSynthEnvelope`), each
///    note sounding in both layers; the layer sum × level, summed to mono (each voice is mono and both
///    output channels carry it, as in the original). There is no normalisation of the voice sum.
/// 3. `HiSynthFilterStage`: low-pass then high-pass (RBJ responses, Q = 10^(dB/20)).
/// 4. The filter-out gain (0.5, the amplitude LFOs' target).
/// 5. `HiSynthEffectsChain`: decimator → drive → delay → reverb (stereo from here).
/// 6. Output stage: `BrickwallLimiter` (ceiling −1 dBFS, 24 ms release, 5 ms look-ahead offline, the 1 ms
///    live stage live; the original's PeakLimiter has 12 ms attack, 24 ms decay, 0 dB pre-gain), then the
///    oscilloscope tap and meters.
///
/// MIDI (omni): note on/off (velocity 0 = off; velocity otherwise ignored), CC 120 All Sound Off,
/// CC 123 All Notes Off. Every note-on resets the LFO phases (key sync) and is logged for the piano roll.
///
/// Real time: `render`, `handle` and `snapshot` never allocate, lock or throw (HiSynthAllocationTests);
/// everything is sized in `prepare`.
public final class HiSynthEngine: AudioEngine {
    /// Ceiling of the output limiter, dBFS.
    public static let ceilingDecibels: Float = -1
    /// Samples the oscilloscope tap keeps (the original draws the last 1024).
    public static let scopeCapacity = 4096

    /// The settings in effect (targets; continuous values may still be gliding).
    public private(set) var settings: HiSynthSettings
    /// The last output samples (left channel), for an oscilloscope on another thread.
    public let scope = SampleRingBuffer(minimumCapacity: HiSynthEngine.scopeCapacity)
    /// The last samples of the filter-out mixer (mono, after the filters and the amplitude gain, before
    /// the effects): the original's spectrum tap, for a spectrum display on another thread.
    public let filterScope = SampleRingBuffer(minimumCapacity: HiSynthEngine.scopeCapacity)
    /// The last 64 note events, for a piano roll on another thread.
    public let noteLog = HiSynthNoteLog(capacity: 64)
    /// Samples rendered since the last reset (the note log's clock).
    public internal(set) var frame: Int64 = 0

    let layer1 = HiSynthLayer()
    let layer2 = HiSynthLayer()
    var envelope = HiSynthEnvelope.Parameters()
    var modulation = HiSynthModulation()
    var filters = HiSynthFilterStage()
    let effects = HiSynthEffectsChain()
    let limiter = BrickwallLimiter(ceiling: HiSynthEngine.ceilingDecibels, releaseTime: 0.024, lookahead: 0.005)
    var sampleRate = 44_100.0

    // Control-rate state: samples until the next LFO evaluation, and the ramps running across this run.
    var samplesUntilTick = 0
    var pitchHz: Float = 0
    var pitchStep: Float = 0
    var pitchRouted = false
    var amplitude: Float = HiSynthModulation.baseAmplitude
    var amplitudeStep: Float = 0
    /// Per-run filter factors of the block being rendered: (start sample, low factor, high factor).
    var runStarts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 0)
    var runLowFactors = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var runHighFactors = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)

    // Scratch, one block each, allocated in `prepare`.
    var mono = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var layerScratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var pitchBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var gainBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)

    // Notes and meters.
    var heldLow: UInt64 = 0
    var heldHigh: UInt64 = 0
    var notesStarted = 0
    var meterPeak: Float = 0
    var peakSinceReset: Float = 0

    /// - Parameter settings: the initial settings (the original's start-up values by default).
    public init(settings: HiSynthSettings = HiSynthSettings()) {
        self.settings = settings
        prepare(ProcessSpec(sampleRate: 44_100, maximumBlockSize: 512, channelCount: 2))
    }

    /// An engine playing `preset` (values clamped to the preset model's ranges).
    public convenience init(preset: HiSynthPreset) {
        self.init(settings: HiSynthSettings(preset: preset))
    }

    deinit {
        for b in [mono, layerScratch, pitchBuffer, gainBuffer, runLowFactors, runHighFactors] { b.deallocate() }
        runStarts.deallocate()
    }

    // MARK: AudioEngine

    public func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        let n = max(1, spec.maximumBlockSize)
        for b in [mono, layerScratch, pitchBuffer, gainBuffer, runLowFactors, runHighFactors] { b.deallocate() }
        runStarts.deallocate()
        mono = Self.zeroed(n); layerScratch = Self.zeroed(n); pitchBuffer = Self.zeroed(n); gainBuffer = Self.zeroed(n)
        let runs = n / HiSynthModulation.controlInterval + 2
        runLowFactors = Self.zeroed(runs); runHighFactors = Self.zeroed(runs)
        runStarts = .allocate(capacity: runs)
        runStarts.initialize(repeating: 0)
        layer1.prepare(sampleRate: sampleRate)
        layer2.prepare(sampleRate: sampleRate)
        filters.prepare(sampleRate: sampleRate)
        effects.prepare(spec.with(maximumBlockSize: n, channelCount: 2))
        limiter.prepare(spec.with(maximumBlockSize: n, channelCount: 2))  // live: the 1 ms live stage
        reset()
    }

    public func reset() {
        layer1.reset()
        layer2.reset()
        apply(settings, snap: true)
        modulation.resetPhases()
        filters.reset()
        effects.reset()
        limiter.reset()
        samplesUntilTick = 0
        pitchHz = 0; pitchStep = 0; pitchRouted = false
        amplitude = HiSynthModulation.baseAmplitude; amplitudeStep = 0
        heldLow = 0; heldHigh = 0
        notesStarted = 0
        meterPeak = 0; peakSinceReset = 0
        frame = 0
    }

    public func handle(_ command: Command) {
        switch command {
        case .noteOn(let note): noteOn(note)
        case .noteOff(let note): noteOff(note)
        case .apply(let s): apply(s, snap: false)
        case .releaseAll: releaseAllNotes()
        case .allSoundOff: allSoundOff()
        }
    }

    public func handle(midi message: MIDIShortMessage) {
        switch message.status & 0xF0 {
        case 0x90: if message.data2 > 0 { noteOn(message.data1) } else { noteOff(message.data1) }
        case 0x80: noteOff(message.data1)
        case 0xB0:
            if message.data1 == 120 { allSoundOff() } else if message.data1 == 123 { releaseAllNotes() }
        default: break
        }
    }

    public func releaseAllNotes() {
        layer1.releaseAll(envelope)
        layer2.releaseAll(envelope)
        for note in 0..<128 where isHeld(UInt8(note)) { noteLog.append(HiSynthNoteEvent(note: UInt8(note), isOn: false, frame: frame)) }
        heldLow = 0; heldHigh = 0
    }

    /// All Sound Off: every voice mutes within 1 ms.
    public func allSoundOff() {
        releaseAllNotes()
        layer1.muteAll(envelope)
        layer2.muteAll(envelope)
    }

    public func snapshot() -> HiSynthSnapshot {
        let v = modulation.values
        let snap = HiSynthSnapshot(
            soundingVoiceCount: layer1.soundingCount + layer2.soundingCount,
            busyVoiceCount: layer1.busyCount + layer2.busyCount,
            heldNotesLow: heldLow, heldNotesHigh: heldHigh, lfoValues: SIMD3(v.0, v.1, v.2),
            lowPassCutoff: filters.currentLowCutoff, highPassCutoff: filters.currentHighCutoff,
            amplitude: amplitude, peak: meterPeak, peakSinceReset: max(peakSinceReset, meterPeak),
            gainReductionDecibels: limiter.gainReductionDecibels,
            stolenVoiceCount: layer1.stolenCount + layer2.stolenCount, noteOnCount: notesStarted)
        peakSinceReset = max(peakSinceReset, meterPeak)
        meterPeak = 0
        return snap
    }

    /// Delay the limiter's look-ahead adds, in samples.
    public var latencySamples: Int { limiter.latencySamples }

    // MARK: Notes and settings

    private func isHeld(_ note: UInt8) -> Bool {
        note < 64 ? heldLow & (1 << UInt64(note)) != 0 : heldHigh & (1 << UInt64(note - 64)) != 0
    }

    private func setHeld(_ note: UInt8, _ on: Bool) {
        if note < 64 {
            let bit: UInt64 = 1 << UInt64(note)
            heldLow = on ? heldLow | bit : heldLow & ~bit
        } else {
            let bit: UInt64 = 1 << UInt64(note - 64)
            heldHigh = on ? heldHigh | bit : heldHigh & ~bit
        }
    }

    private func noteOn(_ note: UInt8) {
        guard note < 128 else { return }
        layer1.noteOn(note, envelope)
        layer2.noteOn(note, envelope)
        notesStarted += 1
        setHeld(note, true)
        noteLog.append(HiSynthNoteEvent(note: note, isOn: true, frame: frame))
        // Key sync: every LFO restarts at phase 0, evaluated from this very sample.
        modulation.resetPhases()
        samplesUntilTick = 0
    }

    private func noteOff(_ note: UInt8) {
        guard note < 128 else { return }
        layer1.noteOff(note, envelope)
        layer2.noteOff(note, envelope)
        if isHeld(note) { noteLog.append(HiSynthNoteEvent(note: note, isOn: false, frame: frame)) }
        setHeld(note, false)
    }

    func apply(_ s: HiSynthSettings, snap: Bool) {
        settings = s
        let e = s.envelope
        envelope.set(attack: e.attack, decay: e.decay, sustain: e.sustain, release: e.release, sampleRate: sampleRate)
        configure(layer1, s.layer1, snap: snap)
        configure(layer2, s.layer2, snap: snap)
        modulation.apply(s, sampleRate: sampleRate, snap: snap)
        filters.apply(low: s.lowPass, high: s.highPass, snap: snap)
        effects.apply(s.effects, snap: snap)
    }

    private func configure(_ layer: HiSynthLayer, _ l: HiSynthSettings.Layer, snap: Bool) {
        layer.waveform = l.waveform.shape
        layer.pitch = l.pitch.isFinite ? l.pitch : 0
        let level = l.level.isFinite ? min(max(l.level, 0), 1) : 0
        if snap { layer.level.snap(to: level) } else { layer.level.setTarget(level) }
    }

    static func zeroed(_ n: Int) -> UnsafeMutableBufferPointer<Float> {
        let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: n)
        b.initialize(repeating: 0)
        return b
    }
}
