import Foundation
import Touchstone

/// Prospero's built-in polyphonic synth: up to 256 voices (16 by default) of band-limited sine, saw,
/// triangle or square (the square at 70 % level) with ADSR, portamento, an LFO as vibrato or tremolo,
/// then Tone → Fuzz → Delay → Reverb, output gain and a brickwall limiter.
///
/// Signal path per block:
/// 1. Shared modulation, per sample: pitch ratio 2^((bend + vibrato)/12) with the bend smoothed over
///    5 ms and vibrato ±0.4 st × depth; level = tremolo (1 − 0.8·depth·LFO⁺) × CC 7 × CC 11 (20 ms).
/// 2. Voices (`VoiceAllocator`: same note restarts in place, then free, longest released, oldest held).
///    A stolen voice fades over 3 ms (`ADSR.kill`) and starts the new note at the sample the fade ends.
///    Each voice sits at a fixed pan (golden-ratio pattern over the voice index, ±30 % × spread).
///    Voices render eight at a time in SIMD lanes (`PolySynthVoiceLanes`); `voiceRendering = .scalar`
///    renders them one by one, the reference the lanes equal to 2e-5 (PolySynthVoiceLanesTests).
/// 3. Effects, each with a 10 ms cross-faded bypass (a fully bypassed effect costs nothing and is
///    cleared before it comes back, so no stale tail returns).
/// 4. Stereo width (mono = both channels equal, cross-faded over 20 ms), output gain (20 ms),
///    `BrickwallLimiter` at `ceiling` (5 ms look-ahead offline; live, the 1 ms live stage; the output is
///    `latencySamples` late).
///
/// MIDI (omni: every channel plays; the channel keeps notes and sustain pedals apart):
/// note on/off (velocity 0 = off), pitch bend (range `pitchBendRange`), CC 1 mod wheel → LFO depth,
/// CC 7 volume and CC 11 expression (gain (value/127)², smoothed), CC 64 sustain (≥ 64 = down,
/// per channel), CC 120 All Sound Off, CC 121 Reset All Controllers, CC 123 All Notes Off.
///
/// Real time: `render`, `handle` and `snapshot` never allocate, lock or throw; everything is sized
/// in `prepare`. Control from other threads goes through `EngineHost` (`Command`).
public final class PolySynth: AudioEngine {
    public typealias Snapshot = PolySynthSnapshot

    /// The most voices a synth can have (the polyphony setting chooses how many of them may sound;
    /// `VoiceAllocator`'s limit).
    public static let maximumCapacity = 256
    /// Depth of vibrato at LFO depth 1, in semitones each way.
    public static let vibratoSemitones: Float = 0.4
    /// Depth of tremolo at LFO depth 1: the level dips by this fraction.
    public static let tremoloDepth: Float = 0.8
    /// Level of the square relative to the other waveforms (the seed's "70 % attenuation" reading:
    /// a full-scale square is as loud in peak as a saw at 0.7).
    public static let squareLevel: Float = 0.7
    /// Gain of one voice at full velocity, so that a few voices stay below full scale.
    public static let voiceLevel: Float = 0.25
    /// How long a stolen voice fades before the new note starts on it, in seconds.
    public static let stealFadeTime: Double = 0.003
    /// Largest pan of a voice at spread 1 (−1…1 is hard left…right).
    public static let maximumPan: Float = 0.3

    /// Number of voices allocated (1…256).
    public let capacity: Int
    /// The current settings (numbers clamped into range).
    public private(set) var settings: PolySynthSettings

    var allocator: VoiceAllocator
    let voices: UnsafeMutableBufferPointer<PolySynthVoice>
    /// Voices 8g…8g+7 as SIMD lanes, one group per eight voices (the last may be partly empty).
    let laneGroups: UnsafeMutableBufferPointer<PolySynthVoiceLanes>
    /// Lanes (default) or voice by voice; both sound the same to 2e-5. Set between blocks.
    public var voiceRendering: PolySynthVoiceRendering = .lanes
    var spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2)

    var lfo = LFO(waveform: .sine, rate: .hertz(5.5))
    var bend = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.005)
    var depth = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.02)
    var vibratoMix = SmoothedParameter(initialValue: 1, style: .linear, rampTime: 0.02)
    var tremoloMix = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.02)
    var channelLevel = SmoothedParameter(initialValue: 1, style: .linear, rampTime: 0.02)
    var spread = SmoothedParameter(initialValue: 0.5, style: .linear, rampTime: 0.02)
    var width = SmoothedParameter(initialValue: 1, style: .linear, rampTime: 0.02)
    var outputGain = SmoothedParameter(initialValue: 1, style: .linear, rampTime: 0.02)
    var toneWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.01)
    var fuzzWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.01)
    var delayWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.01)
    var reverbWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: 0.01)

    var toneLeft = ToneFilter()
    var toneRight = ToneFilter()
    var fuzzLeft = Fuzz()
    var fuzzRight = Fuzz()
    let delay = StereoDelay(maximumDelay: 2.1)
    let reverb = FeedbackDelayNetworkReverb()
    let limiter = BrickwallLimiter(ceiling: -1)

    // Scratch, one block each, allocated in `prepare`.
    var mid = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var side = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var ratio = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var level = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var wetLeft = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    var wetRight = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    // Per-sample sums of each lane over every group, reduced once at the end of the voices.
    var midLanes = UnsafeMutableBufferPointer<SIMD8<Float>>.allocate(capacity: 0)
    var sideLanes = UnsafeMutableBufferPointer<SIMD8<Float>>.allocate(capacity: 0)
    // One lane group's oscillator frequencies and amplitudes (envelope × gain) per sample.
    var laneFrequencies = UnsafeMutableBufferPointer<SIMD8<Float>>.allocate(capacity: 0)
    var laneAmplitudes = UnsafeMutableBufferPointer<SIMD8<Float>>.allocate(capacity: 0)
    /// `ratio` holds one value for the whole block (no bend moving, no vibrato).
    var ratioIsFixed = true

    // Whether each effect ran in the last block (an effect coming back from full bypass is cleared first).
    var toneRunning = false
    var fuzzRunning = false
    var delayRunning = false
    var reverbRunning = false

    // MIDI controller state.
    var sustainPedals: UInt16 = 0
    var bendPosition: Double = 0
    var volumeCC: UInt8 = 127
    var expressionCC: UInt8 = 127
    var lastNoteHz: Double?

    // Meters and counters.
    var meterPeak: Float = 0
    var peakSinceReset: Float = 0
    var meterSquares: Double = 0
    var meterFrames = 0
    var stolenVoices = 0
    var notesStarted = 0

    /// - Parameters:
    ///   - capacity: voices allocated, 1…256 (the polyphony setting may use fewer).
    ///   - settings: initial settings; numbers out of range are clamped (validate them first to
    ///     report errors to a user).
    public init(capacity: Int = 16, settings: PolySynthSettings = PolySynthSettings()) {
        precondition((1...Self.maximumCapacity).contains(capacity), "PolySynth capacity must be 1…256")
        self.capacity = capacity
        self.settings = settings.clamped(capacity: capacity)
        allocator = VoiceAllocator(capacity: capacity)
        voices = .allocate(capacity: capacity)
        // Golden-ratio pattern: consecutive voices land far apart, spread evenly over −1…1.
        for v in 0..<capacity {
            var voice = PolySynthVoice()
            let x = (Double(v) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
            voice.pan = Float(v == 0 ? 0 : 2 * x - 1)
            (voices.baseAddress! + v).initialize(to: voice)
        }
        laneGroups = .allocate(capacity: (capacity + 7) / 8)
        laneGroups.initialize(repeating: PolySynthVoiceLanes())
        apply(self.settings, snap: true)
    }

    deinit {
        voices.deinitialize()
        voices.deallocate()
        laneGroups.deinitialize()
        laneGroups.deallocate()
        for buffer in [mid, side, ratio, level, wetLeft, wetRight] { buffer.deallocate() }
        for buffer in [midLanes, sideLanes, laneFrequencies, laneAmplitudes] { buffer.deallocate() }
    }

    // MARK: AudioEngine

    public func prepare(_ spec: ProcessSpec) {
        self.spec = spec
        let n = max(1, spec.maximumBlockSize)
        for buffer in [mid, side, ratio, level, wetLeft, wetRight] { buffer.deallocate() }
        mid = Self.zeroed(n); side = Self.zeroed(n); ratio = Self.zeroed(n)
        level = Self.zeroed(n); wetLeft = Self.zeroed(n); wetRight = Self.zeroed(n)
        for buffer in [midLanes, sideLanes, laneFrequencies, laneAmplitudes] { buffer.deallocate() }
        midLanes = Self.zeroedLanes(n); sideLanes = Self.zeroedLanes(n)
        laneFrequencies = Self.zeroedLanes(n); laneAmplitudes = Self.zeroedLanes(n)
        // Both keep `isLive`: live, the limiter is the 1 ms live stage.
        let stereoSpec = spec.with(maximumBlockSize: n, channelCount: 2)
        let monoSpec = spec.with(maximumBlockSize: n, channelCount: 1)
        for v in 0..<capacity { voices[v].prepare(monoSpec) }
        for g in laneGroups.indices { laneGroups[g].prepare(monoSpec) }
        lfo.prepare(monoSpec)
        for p in [\PolySynth.bend, \.depth, \.vibratoMix, \.tremoloMix, \.channelLevel, \.spread, \.width,
                  \.outputGain, \.toneWet, \.fuzzWet, \.delayWet, \.reverbWet] {
            self[keyPath: p].prepare(sampleRate: spec.sampleRate)
        }
        toneLeft.prepare(monoSpec); toneRight.prepare(monoSpec)
        fuzzLeft.prepare(monoSpec); fuzzRight.prepare(monoSpec)
        delay.prepare(stereoSpec)
        reverb.prepare(stereoSpec)
        limiter.prepare(stereoSpec)
        reset()
    }

    public func reset() {
        for v in 0..<capacity {
            voices[v].reset()
            if allocator.state(of: v) != .free { allocator.voiceBecameIdle(v) }
        }
        lfo.reset()
        sustainPedals = 0
        bendPosition = 0
        volumeCC = 127
        expressionCC = 127
        lastNoteHz = nil
        apply(settings, snap: true)
        toneLeft.reset(); toneRight.reset(); fuzzLeft.reset(); fuzzRight.reset()
        delay.reset(); reverb.reset(); limiter.reset()
        meterPeak = 0; meterSquares = 0; meterFrames = 0
        stolenVoices = 0; notesStarted = 0; peakSinceReset = 0
    }

    public func handle(_ command: Command) {
        switch command {
        case .noteOn(let note, let velocity, let channel): noteOn(note, velocity: velocity, channel: channel)
        case .noteOff(let note, let channel): noteOff(note, channel: channel)
        case .midi(let message): handle(midi: message)
        case .set(let parameter, let value): set(parameter, value)
        case .setWaveform(let w):
            var s = settings; s.waveform = w; apply(s, snap: false)
        case .setLFOMode(let m):
            var s = settings; s.lfoMode = m; apply(s, snap: false)
        case .setStereo(let stereo):
            var s = settings; s.stereo = stereo; apply(s, snap: false)
        case .setPolyphony(let voices):
            var s = settings; s.polyphony = voices; apply(s, snap: false)
        case .setEffectEnabled(let effect, let on):
            var s = settings
            switch effect {
            case .tone: s.tone.enabled = on
            case .fuzz: s.fuzz.enabled = on
            case .delay: s.delay.enabled = on
            case .reverb: s.reverb.enabled = on
            }
            apply(s, snap: false)
        case .apply(let s): apply(s, snap: false)
        case .releaseAll: releaseAllNotes()
        case .panic: allSoundOff(); resetControllers()
        }
    }

    public func handle(midi message: MIDIShortMessage) {
        let channel = message.status & 0x0F
        switch message.status & 0xF0 {
        case 0x80: noteOff(message.data1, channel: channel)
        case 0x90: noteOn(message.data1, velocity: message.data2, channel: channel)
        case 0xB0: controlChange(message.data1, message.data2, channel: channel)
        case 0xE0:
            let value = Int(message.data1) | Int(message.data2) << 7
            bendPosition = max(-1, Double(value - 8192) / 8192)
            bend.setTarget(Float(bendPosition * settings.pitchBendRange))
        default: break
        }
    }

    public func releaseAllNotes() {
        allocator.releaseAll { v in voices[v].release() }
        for v in 0..<capacity { voices[v].sustained = false }
    }

    public func snapshot() -> PolySynthSnapshot {
        var low: UInt64 = 0, high: UInt64 = 0
        var active = 0
        for v in 0..<capacity {
            if voices[v].isSounding { active += 1 }
            guard allocator.state(of: v) == .held else { continue }
            let note = allocator.note(of: v)
            if note < 64 { low |= 1 << UInt64(note) } else { high |= 1 << UInt64(note - 64) }
        }
        let rms = meterFrames > 0 ? Float((meterSquares / Double(2 * meterFrames)).squareRoot()) : 0
        let snap = PolySynthSnapshot(
            activeVoiceCount: active, heldNotesLow: low, heldNotesHigh: high, peak: meterPeak, rms: rms,
            gainReductionDecibels: limiter.gainReductionDecibels, lfoPhase: Float(lfo.phase),
            stolenVoiceCount: stolenVoices, noteOnCount: notesStarted, peakSinceReset: max(peakSinceReset, meterPeak))
        peakSinceReset = max(peakSinceReset, meterPeak)
        meterPeak = 0; meterSquares = 0; meterFrames = 0
        return snap
    }

    /// Delay the limiter's look-ahead adds, in samples.
    public var latencySamples: Int { limiter.latencySamples }

    // MARK: Notes

    private func noteOn(_ note: UInt8, velocity: UInt8, channel: UInt8) {
        guard note < 128, channel < 16, velocity < 128 else { return }
        guard velocity > 0 else { return noteOff(note, channel: channel) }
        let assignment = allocator.noteOn(note: note, channel: channel)
        notesStarted += 1
        let hz = settings.tuning * exp2((Double(note) - 69) / 12)
        let s = settings.velocitySensitivity
        let v = Double(velocity) / 127
        let velocityGain = Float((1 - s) + s * v * v)
        let waveLevel: Float = settings.waveform == .square ? Self.squareLevel : 1
        let glideSeconds = PolySynthSettings.glideTime(portamento: settings.portamento)
        let start = PolySynthVoice.Start(
            hz: hz, glideFromHz: lastNoteHz ?? hz, glideSeconds: lastNoteHz == nil ? 0 : glideSeconds,
            gain: velocityGain * waveLevel * Self.voiceLevel, waveform: settings.waveform)
        lastNoteHz = hz
        let voice = assignment.voice
        voices[voice].keyDown = true
        voices[voice].sustained = false
        if assignment.stolenNote != nil && voices[voice].isSounding {
            stolenVoices += 1
            voices[voice].envelope.kill(fadeTime: Self.stealFadeTime)
            voices[voice].pending = start
        } else if voices[voice].pending != nil {
            voices[voice].pending = start      // still fading from a steal: replace the waiting note
        } else if assignment.isRetrigger && voices[voice].envelope.isActive {
            // Same note again: attack from the current level with the same waveform, so nothing jumps.
            var restart = start
            restart.waveform = voices[voice].waveform
            restart.glideSeconds = 0
            voices[voice].begin(restart)
        } else {
            voices[voice].begin(start)
        }
    }

    private func noteOff(_ note: UInt8, channel: UInt8) {
        guard note < 128, channel < 16 else { return }
        if sustainPedals & (1 << UInt16(channel)) != 0 {
            // The pedal keeps the note: remember it is released, release it with the pedal.
            for v in 0..<capacity where allocator.state(of: v) == .held
                && allocator.note(of: v) == note && allocator.channel(of: v) == channel {
                voices[v].keyDown = false
                voices[v].sustained = true
            }
            return
        }
        allocator.noteOff(note: note, channel: channel) { v in voices[v].release() }
    }

    private func sustainPedal(down: Bool, channel: UInt8) {
        let bit: UInt16 = 1 << UInt16(channel)
        if down {
            sustainPedals |= bit
            return
        }
        guard sustainPedals & bit != 0 else { return }
        sustainPedals &= ~bit
        for v in 0..<capacity where voices[v].sustained && allocator.state(of: v) == .held
            && allocator.channel(of: v) == channel {
            let note = allocator.note(of: v)
            allocator.noteOff(note: note, channel: channel) { w in
                if !voices[w].keyDown { voices[w].release() }
            }
        }
    }

    private func allSoundOff() {
        allocator.releaseAll { _ in }
        for v in 0..<capacity {
            voices[v].pending = nil
            voices[v].keyDown = false
            voices[v].sustained = false
            voices[v].envelope.kill(fadeTime: 0.005)
        }
        sustainPedals = 0
    }

    private func resetControllers() {
        var channel: UInt8 = 0
        while channel < 16 {
            sustainPedal(down: false, channel: channel)
            channel += 1
        }
        bendPosition = 0
        bend.setTarget(0)
        depth.setTarget(Float(settings.lfoDepth))
        volumeCC = 127
        expressionCC = 127
        channelLevel.setTarget(1)
    }

    private func controlChange(_ controller: UInt8, _ value: UInt8, channel: UInt8) {
        switch controller {
        case 1: depth.setTarget(Float(value) / 127)
        case 7:
            volumeCC = value
            channelLevel.setTarget(Self.ccGain(volumeCC) * Self.ccGain(expressionCC))
        case 11:
            expressionCC = value
            channelLevel.setTarget(Self.ccGain(volumeCC) * Self.ccGain(expressionCC))
        case 64: sustainPedal(down: value >= 64, channel: channel)
        case 120: allSoundOff()
        case 121: resetControllers()
        case 123: releaseAllNotes()
        default: break
        }
    }

    private static func ccGain(_ value: UInt8) -> Float {
        let x = Float(value) / 127
        return x * x
    }

    // MARK: Settings

    private func set(_ parameter: Parameter, _ value: Double) {
        var s = settings
        switch parameter {
        case .portamento: s.portamento = value
        case .attack: s.attack = value
        case .decay: s.decay = value
        case .sustain: s.sustain = value
        case .release: s.release = value
        case .lfoRate: s.lfoRate = value
        case .lfoDepth: s.lfoDepth = value
        case .velocitySensitivity: s.velocitySensitivity = value
        case .pitchBendRange: s.pitchBendRange = value
        case .tuning: s.tuning = value
        case .stereoSpread: s.stereoSpread = value
        case .toneCutoff: s.tone.cutoff = value
        case .fuzzDrive: s.fuzz.drive = value
        case .fuzzLevel: s.fuzz.level = value
        case .fuzzMix: s.fuzz.mix = value
        case .delayTime: s.delay.time = value
        case .delayFeedback: s.delay.feedback = value
        case .delayMix: s.delay.mix = value
        case .delayDamping: s.delay.damping = value
        case .delayStereoOffset: s.delay.stereoOffset = value
        case .reverbDecay: s.reverb.decay = value
        case .reverbSize: s.reverb.size = value
        case .reverbDamping: s.reverb.damping = value
        case .reverbDiffusion: s.reverb.diffusion = value
        case .reverbMix: s.reverb.mix = value
        case .outputGain: s.outputGain = value
        case .ceiling: s.ceiling = value
        }
        apply(s, snap: false)
    }

    /// Pushes settings into the kernels: targets for smoothed values, immediately when `snap`.
    private func apply(_ newSettings: PolySynthSettings, snap: Bool) {
        let old = settings
        let s = newSettings.clamped(capacity: capacity)
        settings = s
        allocator.setPolyphony(s.polyphony)
        if snap || s.attack != old.attack || s.decay != old.decay || s.sustain != old.sustain || s.release != old.release {
            let p = ADSR.Parameters(attack: s.attack, decay: s.decay, sustain: s.sustain, release: s.release)
            for v in 0..<capacity { voices[v].envelope.setParameters(p) }
        }
        lfo.setRate(.hertz(s.lfoRate))
        if snap || s.lfoDepth != old.lfoDepth { target(&depth, Float(s.lfoDepth), snap) }
        target(&vibratoMix, s.lfoMode == .vibrato ? 1 : 0, snap)
        target(&tremoloMix, s.lfoMode == .tremolo ? 1 : 0, snap)
        target(&bend, Float(bendPosition * s.pitchBendRange), snap)
        target(&spread, Float(s.stereoSpread) * Self.maximumPan, snap)
        target(&width, s.stereo ? 1 : 0, snap)
        target(&outputGain, Float(pow(10, s.outputGain / 20)), snap)
        if snap { channelLevel.snap(to: Self.ccGain(volumeCC) * Self.ccGain(expressionCC)) }

        toneLeft.cutoff = Float(s.tone.cutoff); toneRight.cutoff = Float(s.tone.cutoff)
        fuzzLeft.drive = Float(s.fuzz.drive); fuzzRight.drive = Float(s.fuzz.drive)
        fuzzLeft.outputLevel = Float(s.fuzz.level); fuzzRight.outputLevel = Float(s.fuzz.level)
        fuzzLeft.mix = Float(s.fuzz.mix); fuzzRight.mix = Float(s.fuzz.mix)
        delay.delayTime = Float(s.delay.time)
        delay.feedback = Float(s.delay.feedback)
        delay.mix = Float(s.delay.mix)
        delay.dampingCutoff = Float(s.delay.damping)
        delay.rightTimeOffset = Float(s.delay.stereoOffset)
        reverb.decayTime = Float(s.reverb.decay)
        if snap || s.reverb.size != old.reverb.size { reverb.size = Float(s.reverb.size) }
        reverb.damping = Float(s.reverb.damping)
        reverb.diffusion = Float(s.reverb.diffusion)
        reverb.mix = Float(s.reverb.mix)
        limiter.ceiling = Float(s.ceiling)
        target(&toneWet, s.tone.enabled ? 1 : 0, snap)
        target(&fuzzWet, s.fuzz.enabled ? 1 : 0, snap)
        target(&delayWet, s.delay.enabled ? 1 : 0, snap)
        target(&reverbWet, s.reverb.enabled ? 1 : 0, snap)
    }

    private func target(_ p: inout SmoothedParameter, _ value: Float, _ snap: Bool) {
        if snap { p.snap(to: value) } else { p.setTarget(value) }
    }

    private static func zeroedLanes(_ n: Int) -> UnsafeMutableBufferPointer<SIMD8<Float>> {
        let b = UnsafeMutableBufferPointer<SIMD8<Float>>.allocate(capacity: n)
        b.initialize(repeating: SIMD8())
        return b
    }

    private static func zeroed(_ n: Int) -> UnsafeMutableBufferPointer<Float> {
        let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: n)
        b.initialize(repeating: 0)
        return b
    }
}
