import Ariel
import Foundation
import Horatio
import Touchstone

/// Hecate's face-controlled chord synthesizer, as an Ariel `AudioEngine`.
///
/// Signal chain (the topology never changes; a `VoicePreset` only sets its numbers):
///
///     6 tone banks (root, third, fifth, seventh, ninth, octave; 3 detuned oscillators each)
///       + sub-bass (chord root −1 octave, sine) + bass voice (chord root in 55…110 Hz)
///       × breathing LFO (0.15 Hz) × master gain × face-lost fade
///       → SVF low-pass (cutoff, resonance) → formant F1 ∥ F2 band-passes (dry/F1/F2 mix)
///       → FDN reverb → tremolo (BPM-synced) → + drone (key root + 5th, sine, × fade)
///       → spike protection → brickwall limiter (−6 / −10 / −14 dBFS)
///
/// Every value a face moves is smoothed: tone and bass levels, arpeggiator gates, the face-lost
/// fade and chord glides per sample (one-pole, `rtOnePole`); sculpt amounts one-pole at the
/// 3 kHz control rate (every 16 samples), from which the filters ramp per sample in the pitch
/// domain. A pack change ramps its continuous numbers over about 50 ms and swaps the waveform,
/// detune and room size inside a 15 ms dip of the tone bus and reverb return, so it never clicks.
///
/// Face-lost fade: 100 ms down, 450 ms up (S-curve, so neither end clicks); the engine also fades in
/// over 450 ms after `prepare` and `reset`.
///
/// State changes only through `handle(_:)` with a `Command` (from `EngineHost`'s lock-free ring).
/// `render` never allocates, locks or throws. The 256-sample display waveform is `waveform`.
public final class DroneSynthEngine: AudioEngine {
    public typealias Snapshot = DroneSynthSnapshot


    // MARK: Hard-coded constants (the seed keeps these out of presets)

    /// Face-lost fade down and up, in seconds.
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

    // MARK: Audio-thread state

    @exclusivity(unchecked) var sampleRate: Double = 48_000
    @exclusivity(unchecked) var maximumBlockSize = 0
    /// The 6 tone banks as SIMD lanes (lane = bank; lanes 6 and 7 stand still and silent).
    @exclusivity(unchecked) var banks: DetunedOscillatorBankLanes
    /// Per bank (lane): face level (0…1, rest levels included), level target, smoothed level, gate target
    /// and gate, frequency target and frequency (Hz).
    @exclusivity(unchecked) var faceLevels: SIMD8<Float> = .zero
    @exclusivity(unchecked) var levelTargets: SIMD8<Float> = .zero
    @exclusivity(unchecked) var levels: SIMD8<Float> = .zero
    @exclusivity(unchecked) var gateTargets = SIMD8<Float>(1, 1, 1, 1, 1, 1, 0, 0)
    @exclusivity(unchecked) var gates = SIMD8<Float>(1, 1, 1, 1, 1, 1, 0, 0)
    /// Lanes 6 and 7 stand still at 0 Hz, so they never ask for band-limiting work.
    @exclusivity(unchecked) var frequencyTargets = SIMD8<Float>(220, 220, 220, 220, 220, 220, 0, 0)
    @exclusivity(unchecked) var frequencies = SIMD8<Float>(220, 220, 220, 220, 220, 220, 0, 0)
    /// Stage buffers, `maximumBlockSize` long: the filtered mono voice, the drone, and per sample the
    /// dry and wet gains of the room (the wet one dips during a pack change); the room's two channels.
    @exclusivity(unchecked) var voiceBuffer: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var droneBuffer: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var dryGains: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var wetGains: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var roomLeft: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var roomRight: UnsafeMutablePointer<Float>
    /// The breathing LFO's value at the start of the next control run (it is read once per run and
    /// interpolated: at 0.15 Hz a 16-sample line is exact to Float rounding).
    @exclusivity(unchecked) var breathValue: Float = 0
    /// A pack change reached the bottom of its dip: `roomPreset`'s room replaces the current one after
    /// this chunk's reverb. (Flags beside plain values rather than optionals: testing an optional preset
    /// per sample copies the whole preset.)
    @exclusivity(unchecked) var isRoomPending = false
    @exclusivity(unchecked) var roomPreset: VoicePreset
    /// Sculpt amounts (cutoff, resonance, F1, F2, brightness): target and control-rate smoothed.
    @exclusivity(unchecked) var sculptTargets: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var sculpt: UnsafeMutablePointer<Float>
    /// The preset's continuous numbers (see `Slot`): target and control-rate smoothed.
    @exclusivity(unchecked) var presetTargets: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var presetValues: UnsafeMutablePointer<Float>
    /// Voicing table: for each key (12) × degree (7), 6 tone notes, sub, bass, drone root, drone fifth.
    @exclusivity(unchecked) var voicings: UnsafeMutablePointer<Int32>
    static let voicingStride = 10

    /// Sub-bass (lane 0), drone root (lane 1) and drone fifth (lane 2): steady sines as rotating phasors.
    @exclusivity(unchecked) var pedal = RotatingSineLanes(frequencies: SIMD4(65, 65, 98, 0))
    @exclusivity(unchecked) var bass = BandLimitedOscillator(waveform: .triangle, frequency: 65)
    @exclusivity(unchecked) var subFrequency: (current: Float, target: Float) = (65, 65)
    @exclusivity(unchecked) var bassFrequency: (current: Float, target: Float) = (65, 65)
    @exclusivity(unchecked) var droneFrequencies: (root: Float, fifth: Float, rootTarget: Float, fifthTarget: Float) = (65, 98, 65, 98)
    @exclusivity(unchecked) var bassTarget: Float = 0
    @exclusivity(unchecked) var bassLevel: Float = 0
    @exclusivity(unchecked) var breath = LFO(waveform: .sine, rate: .hertz(0.15))
    @exclusivity(unchecked) var lowPass = StateVariableFilter(mode: .lowPass, cutoff: 900, q: 0.7)
    @exclusivity(unchecked) var formant = FormantFilter()
    @exclusivity(unchecked) var reverb = FeedbackDelayNetworkReverb(decayTime: 4, size: 1, damping: 0.4, mix: 1)
    @exclusivity(unchecked) var tremolo = Tremolo(waveform: .sine, rate: .synced(.quarter, bpm: 90), depth: 0, edgeSmoothingTime: 0.004)
    @exclusivity(unchecked) var tremoloDivision = NoteDivision.quarter
    @exclusivity(unchecked) var limiter = BrickwallLimiter(ceiling: -6, releaseTime: 0.1)

    @exclusivity(unchecked) var keyIndex = 0
    @exclusivity(unchecked) var degreeIndex = 0
    @exclusivity(unchecked) var bpm = 90.0
    @exclusivity(unchecked) var arpEnabled = false
    @exclusivity(unchecked) var arpDivisionBeats = 0.5
    @exclusivity(unchecked) var arpStep = 0
    @exclusivity(unchecked) var arpStepPhase = 0.0
    @exclusivity(unchecked) var arpStepIncrement = 0.0
    @exclusivity(unchecked) var arpStepStarted = false
    @exclusivity(unchecked) var arpCurrentBank = 0

    @exclusivity(unchecked) var faceFade: Float = 0
    @exclusivity(unchecked) var faceFadePosition = 0.0
    @exclusivity(unchecked) var faceFadeTarget: Float = 1
    @exclusivity(unchecked) var fadeDownStep = 0.0
    @exclusivity(unchecked) var fadeUpStep = 0.0

    /// Pack change: the waveform, detune and room size wait in `swapPreset` until the dip reaches 0.
    @exclusivity(unchecked) var currentPreset: VoicePreset
    @exclusivity(unchecked) var isSwapPending = false
    @exclusivity(unchecked) var swapPreset: VoicePreset
    @exclusivity(unchecked) var swapPosition = 1.0
    @exclusivity(unchecked) var swapStep = 0.0

    @exclusivity(unchecked) var levelCoefficient: Float = 1
    @exclusivity(unchecked) var glideCoefficient: Float = 1
    @exclusivity(unchecked) var gateCoefficient: Float = 1
    @exclusivity(unchecked) var sculptCoefficient: Float = 1
    @exclusivity(unchecked) var presetCoefficient: Float = 1
    @exclusivity(unchecked) var controlCountdown = 0
    /// Sculpt amounts and preset values sit on their targets: control ticks skip their smoothing.
    /// Cleared by every write to a target.
    @exclusivity(unchecked) var controlSettled = false
    @exclusivity(unchecked) var glidesSettled = false

    @exclusivity(unchecked) var sumOfSquares: Double = 0
    @exclusivity(unchecked) var framesSinceSnapshot = 0
    @exclusivity(unchecked) var smoothedRMS: Float = 0
    @exclusivity(unchecked) var peakSinceSnapshot: Float = 0

    /// Indices into the preset value arrays.
    enum Slot {
        static let cutoffMin = 0, cutoffMax = 1, resonanceMin = 2, resonanceMax = 3
        static let f1Min = 4, f1Max = 5, f2Min = 6, f2Max = 7, formantQ = 8
        static let dryMix = 9, f1Mix = 10, f2Mix = 11, reverbMix = 12
        static let subLevel = 13, bassLevel = 14, droneLevel = 15, breathDepth = 16
        static let count = 17
    }

    /// - Parameters:
    ///   - preset: the starting voice (default: the Cathedral pack's).
    ///   - key: the starting key; the chord starts on I.
    public init(preset: VoicePreset = SoundPack.cathedral.preset, key: MusicalKey = .c) {
        currentPreset = preset
        swapPreset = preset
        roomPreset = preset
        keyIndex = key.rawValue
        // Spread starting phases so a bank opens wide, not as one loud coherent spike.
        let spread = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) * 0.13
        banks = DetunedOscillatorBankLanes(
            waveform: Self.waveform(preset.waveform), frequencies: SIMD8(220, 220, 220, 220, 220, 220, 0, 0),
            detuneCents: Float(preset.detuneCents), phases: (spread, spread + 0.37, spread + 0.71))
        func buffer(_ value: Float, _ count: Int) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
            p.initialize(repeating: value, count: count)
            return p
        }
        faceLevels[0] = 1
        maximumBlockSize = 256
        voiceBuffer = buffer(0, maximumBlockSize)
        droneBuffer = buffer(0, maximumBlockSize)
        dryGains = buffer(0, maximumBlockSize)
        wetGains = buffer(0, maximumBlockSize)
        roomLeft = buffer(0, maximumBlockSize)
        roomRight = buffer(0, maximumBlockSize)
        sculptTargets = buffer(0, 5)
        sculpt = buffer(0, 5)
        presetTargets = buffer(0, Slot.count)
        presetValues = buffer(0, Slot.count)
        voicings = .allocate(capacity: 12 * 7 * Self.voicingStride)
        for key in MusicalKey.allCases {
            for degree in NashvilleDegree.allCases {
                let v = DroneVoicing(key: key, degree: degree)
                let base = (key.rawValue * 7 + degree.rawValue - 1) * Self.voicingStride
                for t in 0..<6 { voicings[base + t] = Int32(v.tones[t]) }
                voicings[base + 6] = Int32(v.sub)
                voicings[base + 7] = Int32(v.bass)
                voicings[base + 8] = Int32(v.droneRoot)
                voicings[base + 9] = Int32(v.droneFifth)
            }
        }
        reverb.mix = 1
        writePresetTargets(preset)
        for s in 0..<Slot.count { presetValues[s] = presetTargets[s] }
        updateToneTargets()
        levels = levelTargets
    }

    deinit {
        for p in [sculptTargets, sculpt, presetTargets, presetValues,
                  voiceBuffer, droneBuffer, dryGains, wetGains, roomLeft, roomRight] { p.deallocate() }
        voicings.deallocate()
    }

    // MARK: AudioEngine

    public func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        if spec.maximumBlockSize > maximumBlockSize {
            for p in [voiceBuffer, droneBuffer, dryGains, wetGains, roomLeft, roomRight] { p.deallocate() }
            maximumBlockSize = spec.maximumBlockSize
            func buffer() -> UnsafeMutablePointer<Float> {
                let p = UnsafeMutablePointer<Float>.allocate(capacity: spec.maximumBlockSize)
                p.initialize(repeating: 0, count: spec.maximumBlockSize)
                return p
            }
            voiceBuffer = buffer()
            droneBuffer = buffer()
            dryGains = buffer()
            wetGains = buffer()
            roomLeft = buffer()
            roomRight = buffer()
        }
        banks.prepare(spec)
        pedal.prepare(spec)
        bass.prepare(spec)
        breath.prepare(spec)
        let controlTime = Double(Self.controlInterval) / spec.sampleRate
        lowPass = StateVariableFilter(mode: .lowPass, cutoff: lowPass.cutoff, q: lowPass.q, smoothingTime: controlTime)
        lowPass.prepare(spec)
        formant = FormantFilter(
            vowel: .a, q: Float(currentPreset.formantQ),
            mix: (Float(currentPreset.formantDryMix), Float(currentPreset.formantF1Mix), Float(currentPreset.formantF2Mix)),
            smoothingTime: controlTime)
        formant.prepare(spec)
        reverb.prepare(spec)
        tremolo.prepare(spec)
        limiter.prepare(spec)
        levelCoefficient = OnePoleSmoother.coefficient(timeConstant: Self.levelSmoothingTime, sampleRate: spec.sampleRate)
        glideCoefficient = OnePoleSmoother.coefficient(timeConstant: Self.glideTime, sampleRate: spec.sampleRate)
        gateCoefficient = OnePoleSmoother.coefficient(timeConstant: Self.arpGateTime, sampleRate: spec.sampleRate)
        let controlRate = spec.sampleRate / Double(Self.controlInterval)
        sculptCoefficient = OnePoleSmoother.coefficient(timeConstant: Self.sculptSmoothingTime, sampleRate: controlRate)
        presetCoefficient = OnePoleSmoother.coefficient(timeConstant: Self.presetSmoothingTime, sampleRate: controlRate)
        fadeDownStep = 1 / (Self.fadeOutTime * spec.sampleRate)
        fadeUpStep = 1 / (Self.fadeInTime * spec.sampleRate)
        swapStep = 1 / (Self.presetSwapTime * spec.sampleRate)
        applyDiscrete(currentPreset)
        updateTempo()
        reset()
    }

    public func reset() {
        banks.reset()
        levels = levelTargets
        gates = gateTargets
        pedal.reset()
        bass.reset()
        breath.reset()
        breathValue = breath.value
        lowPass.reset()
        formant.reset()
        reverb.reset()
        tremolo.reset()
        limiter.reset()
        retune()
        snapGlides()
        for s in 0..<Slot.count { presetValues[s] = presetTargets[s] }
        for s in 0..<5 { sculpt[s] = sculptTargets[s] }
        controlSettled = false
        updateFilterTargets()
        bassLevel = bassTarget
        faceFade = 0
        faceFadePosition = 0
        faceFadeTarget = 1
        swapPosition = 1
        if isSwapPending {
            applyDiscrete(swapPreset)
            isSwapPending = false
        }
        if isRoomPending {
            applyRoom(roomPreset)
            isRoomPending = false
        }
        controlCountdown = 0
        sumOfSquares = 0
        framesSinceSnapshot = 0
        peakSinceSnapshot = 0
        smoothedRMS = 0
    }

    /// Renders a block. Allocation-free, proven by `DroneSynthEngineAllocationTests` (render and every
    /// command). Not marked `@_noAllocation`: a pack swap inside the block calls Touchstone setters
    /// (reverb size, detune) whose bodies the checker cannot see across modules.
    ///
    /// Work is staged so every kernel runs a tight loop over a buffer: per control run (16 samples) the
    /// tone banks, sub, bass and drone, then the low-pass and formants over the run (their targets move
    /// at control rate); per chunk the room, tremolo and limiter. A chunk ends early at the bottom of a
    /// pack-change dip, so the room changes exactly where its return is muted.
    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let count = min(left.count, right.count)
        guard count > 0, let l = left.baseAddress, let r = right.baseAddress else { return }
        var index = 0
        while index < count {
            index += renderChunk(l + index, r + index, min(count - index, maximumBlockSize))
        }
        var sum: Float = 0  // one block's sum is exact enough in Float; the running total is Double
        var peak: Float = peakSinceSnapshot
        for i in 0..<count {
            let m = 0.5 * (l[i] + r[i])
            sum += m * m
            peak = max(peak, abs(l[i]), abs(r[i]))
        }
        sumOfSquares += Double(sum)
        framesSinceSnapshot += count
        peakSinceSnapshot = peak
        waveform.write(UnsafeBufferPointer(start: l, count: count))
    }

    /// Renders up to `count` (≤ `maximumBlockSize`) frames; returns how many it rendered (fewer when a
    /// pack change reached the bottom of its dip).
    func renderChunk(_ l: UnsafeMutablePointer<Float>, _ r: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        var index = 0
        while index < count && !isRoomPending {
            if controlCountdown == 0 {
                controlTick()
                controlCountdown = Self.controlInterval
            }
            let run = renderVoice(at: index, count: min(controlCountdown, count - index))
            let voice = UnsafeMutableBufferPointer(start: voiceBuffer + index, count: run)
            lowPass.process(voice)
            formant.process(voice)
            controlCountdown -= run
            index += run
        }
        // The stereo room is fed the mono voice; its return dips with the pack change.
        let rendered = index
        roomLeft.update(from: voiceBuffer, count: rendered)
        roomRight.update(from: voiceBuffer, count: rendered)
        reverb.process(left: UnsafeMutableBufferPointer(start: roomLeft, count: rendered),
                       right: UnsafeMutableBufferPointer(start: roomRight, count: rendered))
        for i in 0..<rendered {
            let dry = voiceBuffer[i] * dryGains[i]
            l[i] = dry + roomLeft[i] * wetGains[i]
            r[i] = dry + roomRight[i] * wetGains[i]
        }
        let left = UnsafeMutableBufferPointer(start: l, count: rendered)
        let right = UnsafeMutableBufferPointer(start: r, count: rendered)
        tremolo.process(left: left, right: right)
        // The drone enters after the effects: a clean pedal, not pumped or smeared.
        for i in 0..<rendered {
            l[i] += droneBuffer[i]
            r[i] += droneBuffer[i]
        }
        limiter.process(left: left, right: right)
        if isRoomPending {
            applyRoom(roomPreset)
            isRoomPending = false
        }
        return rendered
    }

    /// The voice (tone banks, sub, bass; breath, face fade and pack dip applied) into `voiceBuffer`, the
    /// drone into `droneBuffer` and the room gains, for one run with fixed control values (at most
    /// `controlInterval` samples) starting at `offset`. Returns the samples rendered: fewer than `count`
    /// when a pack change reached the bottom of its dip.
    @inline(__always)
    func renderVoice(at offset: Int, count: Int) -> Int {
        if !arpEnabled && glidesSettled && !isSwapPending && swapPosition >= 1 && faceFadeTarget > 0.5 && faceFadePosition >= 1 {
            // The waveform is chosen once per run, so the oscillators inline into the loop.
            switch banks.waveform {
            case .sine: renderSteadyVoice(SineShape.self, at: offset, count: count)
            case .triangle: renderSteadyVoice(TriangleShape.self, at: offset, count: count)
            case .saw: renderSteadyVoice(SawShape.self, at: offset, count: count)
            case .square: renderSteadyVoice(SquareShape.self, at: offset, count: count)
            case .pulse: renderSteadyVoice(PulseShape.self, at: offset, count: count)
            case .reverseSaw: renderSteadyVoice(ReverseSawShape.self, at: offset, count: count)
            }
            return count
        }
        let lc = levelCoefficient, gc = gateCoefficient, fc = glideCoefficient
        let gliding = !glidesSettled
        let run = startRun(count: count)
        let subLevelGain = run.subLevelGain, bassLevelGain = run.bassLevelGain, droneGain = run.droneGain
        let breathDepth = run.breathDepth, breathStart = run.breathStart, breathStep = run.breathStep
        let wetMix = run.wetMix, dryGain = 1 - wetMix
        let toneGain = Self.toneGain
        let bassIsSine = bass.waveform == .sine
        var banks = self.banks, pedal = self.pedal
        var levels = self.levels, gates = self.gates, frequencies = self.frequencies
        let levelTargets = self.levelTargets, frequencyTargets = self.frequencyTargets
        var sineFrequencies = SIMD4<Float>(subFrequency.current, droneFrequencies.root, droneFrequencies.fifth, 0)
        let sineTargets = SIMD4<Float>(subFrequency.target, droneFrequencies.rootTarget, droneFrequencies.fifthTarget, 0)
        var rendered = 0
        while rendered < count {
            let n = offset + rendered
            if arpEnabled { advanceArpeggiator() }
            levels += (levelTargets - levels) * lc
            gates += (gateTargets - gates) * gc
            if gliding {
                frequencies += (frequencyTargets - frequencies) * fc
                banks.setFrequencies(frequencies)
                sineFrequencies += (sineTargets - sineFrequencies) * fc
                pedal.setFrequencies(sineFrequencies)
                bassFrequency.current = rtOnePole(bassFrequency.current, target: bassFrequency.target, coefficient: fc)
                bass.setFrequency(bassFrequency.current)
            }
            // A silent bank still runs, so its phase stays continuous when it comes back.
            let tones = (banks.nextSample() * (levels * gates)).sum()
            bassLevel = rtOnePole(bassLevel, target: bassTarget, coefficient: lc)
            let swap = Float(advanceSwap())
            let breathGain = 1 - breathDepth * 0.5 * (1 - (breathStart + breathStep * Float(rendered)))
            let pedals = pedal.nextSample()
            var voice = tones * toneGain
            voice += pedals[0] * levels[0] * subLevelGain
            voice += (bassIsSine ? bass.nextSine() : bass.nextTriangle()) * bassLevel * bassLevelGain
            let fade = advanceFade()
            voiceBuffer[n] = voice * (breathGain * swap * fade)
            droneBuffer[n] = (pedals[1] + 0.7 * pedals[2]) * droneGain * fade
            dryGains[n] = dryGain
            wetGains[n] = wetMix * swap
            rendered += 1
            if isRoomPending { break }
        }
        self.banks = banks
        self.pedal = pedal
        self.levels = levels
        self.gates = gates
        if gliding {
            self.frequencies = frequencies
            subFrequency.current = sineFrequencies[0]
            droneFrequencies.root = sineFrequencies[1]
            droneFrequencies.fifth = sineFrequencies[2]
        }
        if isRoomPending {
            applyVoiceShape(roomPreset)
            // A run cut short by a pack change leaves the breath up to 15 samples (0.3 ms) ahead: inaudible.
        }
        return rendered
    }

    /// `renderVoice` while nothing but levels moves (the face present and settled in, no glide, pack
    /// change or arpeggio): the same sound with the fade, dip and step logic left out of the loop.
    @inline(__always)
    func renderSteadyVoice<Shape: OscillatorShape>(_ shape: Shape.Type, at offset: Int, count: Int) {
        let lc = levelCoefficient, gc = gateCoefficient
        let run = startRun(count: count)
        let subLevelGain = run.subLevelGain, bassLevelGain = run.bassLevelGain, droneGain = run.droneGain
        let breathDepth = run.breathDepth, breathStart = run.breathStart, breathStep = run.breathStep
        let wetMix = run.wetMix
        let toneGain = Self.toneGain
        let bassIsSine = bass.waveform == .sine
        var banks = self.banks, pedal = self.pedal, bass = self.bass
        var levels = self.levels, gates = self.gates, bassLevel = self.bassLevel
        let levelTargets = self.levelTargets, gateTargets = self.gateTargets, bassTarget = self.bassTarget
        let voiceOut = voiceBuffer + offset, droneOut = droneBuffer + offset
        for n in 0..<count {
            levels += (levelTargets - levels) * lc
            gates += (gateTargets - gates) * gc
            let tones = (banks.next(Shape.self) * (levels * gates)).sum()
            bassLevel = rtOnePole(bassLevel, target: bassTarget, coefficient: lc)
            let breathGain = 1 - breathDepth * 0.5 * (1 - (breathStart + breathStep * Float(n)))
            let pedals = pedal.nextSample()
            var voice = tones * toneGain
            voice += pedals[0] * levels[0] * subLevelGain
            voice += (bassIsSine ? bass.nextSine() : bass.nextTriangle()) * bassLevel * bassLevelGain
            voiceOut[n] = voice * breathGain
            droneOut[n] = (pedals[1] + 0.7 * pedals[2]) * droneGain
        }
        (dryGains + offset).update(repeating: 1 - wetMix, count: count)
        (wetGains + offset).update(repeating: wetMix, count: count)
        self.banks = banks
        self.pedal = pedal
        self.bass = bass
        self.levels = levels
        self.gates = gates
        self.bassLevel = bassLevel
    }

    /// What stays fixed through one control run.
    struct RunGains {
        var subLevelGain: Float, bassLevelGain: Float, droneGain: Float, wetMix: Float
        var breathDepth: Float, breathStart: Float, breathStep: Float
    }

    /// The run's gains from the smoothed preset values; advances the breathing LFO over the run, which
    /// is read at both ends and drawn as a line between them.
    @inline(__always)
    func startRun(count: Int) -> RunGains {
        let breathStart = breathValue
        breath.skip(count)
        breathValue = breath.value
        return RunGains(
            subLevelGain: presetValues[Slot.subLevel] * Self.subGain,
            bassLevelGain: presetValues[Slot.bassLevel] * Self.bassGain,
            droneGain: presetValues[Slot.droneLevel] * Self.droneGain,
            wetMix: presetValues[Slot.reverbMix],
            breathDepth: presetValues[Slot.breathDepth],
            breathStart: breathStart, breathStep: (breathValue - breathStart) / Float(count))
    }

    /// Face-lost fade: an S-curve (smoothstep) over 100 ms down or 450 ms up.
    @inline(__always)
    func advanceFade() -> Float {
        if faceFadeTarget > 0.5 {
            if faceFadePosition < 1 {
                faceFadePosition = min(1, faceFadePosition + fadeUpStep)
                faceFade = Float(Self.smoothstep(faceFadePosition))
            }
        } else if faceFadePosition > 0 {
            faceFadePosition = max(0, faceFadePosition - fadeDownStep)
            faceFade = Float(Self.smoothstep(faceFadePosition))
        }
        return faceFade
    }

    /// Pack-change dip: down to 0, swap the discrete settings, back up.
    @inline(__always)
    func advanceSwap() -> Double {
        if isSwapPending {
            swapPosition -= swapStep
            if swapPosition <= 0 {
                swapPosition = 0
                // The render loop stops here and swaps the waveform and detune once it has put its
                // oscillators back; the room follows after the chunk's reverb.
                roomPreset = swapPreset
                isRoomPending = true
                isSwapPending = false
            }
        } else if swapPosition < 1 {
            swapPosition = min(1, swapPosition + swapStep)
        } else {
            return 1
        }
        return Self.smoothstep(swapPosition)
    }

    @inline(__always)
    static func smoothstep(_ x: Double) -> Double { x * x * (3 - 2 * x) }

    @inline(__always)
    func advanceArpeggiator() {
        arpStepPhase += arpStepIncrement
        if arpStepPhase >= 1 {
            arpStepPhase -= 1
            arpStep = (arpStep + 1) & 7
            arpStepStarted = true
        }
        if arpStepStarted {
            arpStepStarted = false
            updateGateTargets()
        } else if arpStepPhase >= Self.arpGateLength && gateTargets[arpCurrentBank] > 0 {
            gateTargets[arpCurrentBank] = 0
        }
    }

    /// Control-rate work: sculpt and preset smoothing, filter targets, glide bookkeeping.
    func controlTick() {
        var moved = false
        if !controlSettled {
            smoothControls(moved: &moved)
            controlSettled = !moved
        }
        // Only while something moves: a face held still leaves the filters settled on their fast path.
        if moved {
            // The octave shimmer follows the smoothed smile up to the (smoothed) brightness cap.
            updateToneTargets()
            updateFilterTargets()
        }
        settleGlides()
    }

    /// One smoothing step of the sculpt amounts and preset values; `moved` tells whether any changed.
    func smoothControls(moved: inout Bool) {
        for s in 0..<5 {
            let value = Self.approach(sculpt[s], sculptTargets[s], coefficient: sculptCoefficient)
            if value != sculpt[s] { moved = true }
            sculpt[s] = value
        }
        for s in 0..<Slot.count {
            let value = Self.approach(presetValues[s], presetTargets[s], coefficient: presetCoefficient)
            if value != presetValues[s] { moved = true }
            presetValues[s] = value
        }
    }

    /// Snaps the glides once they are within 0.1 % of their targets.
    func settleGlides() {
        if !glidesSettled {
            var settled = true
            for i in 0..<6 where abs(frequencies[i] - frequencyTargets[i]) > 1e-3 * frequencyTargets[i] { settled = false }
            if abs(droneFrequencies.root - droneFrequencies.rootTarget) > 1e-3 * droneFrequencies.rootTarget { settled = false }
            if abs(bassFrequency.current - bassFrequency.target) > 1e-3 * bassFrequency.target { settled = false }
            if settled { snapGlides() }
        }
    }

    /// One control-rate smoothing step that lands exactly on the target once within a millionth of it
    /// (a plain one-pole in Float can stall one rounding step short and never settle).
    @inline(__always)
    static func approach(_ current: Float, _ target: Float, coefficient: Float) -> Float {
        let next = rtOnePole(current, target: target, coefficient: coefficient)
        return abs(target - next) <= 1e-6 * (abs(target) + 1e-3) ? target : next
    }

    func updateFilterTargets() {
        let cutoffMin = max(presetValues[Slot.cutoffMin], 20)
        let cutoffMax = max(presetValues[Slot.cutoffMax], cutoffMin)
        // Pitch-domain sweep: equal face movement, equal musical interval.
        let cutoff = cutoffMin * fastPow(cutoffMax / cutoffMin, sculpt[0])
        let q = presetValues[Slot.resonanceMin] + (presetValues[Slot.resonanceMax] - presetValues[Slot.resonanceMin]) * sculpt[1]
        let f1 = presetValues[Slot.f1Min] + (presetValues[Slot.f1Max] - presetValues[Slot.f1Min]) * sculpt[2]
        let f2 = presetValues[Slot.f2Min] + (presetValues[Slot.f2Max] - presetValues[Slot.f2Min]) * sculpt[3]
        let nyquistLimit = Float(0.45 * sampleRate)
        lowPass.setCutoff(min(cutoff, nyquistLimit))
        lowPass.setQ(max(q, 0.1))
        formant.setFormants(f1: min(f1, nyquistLimit), f2: min(f2, nyquistLimit))
        formant.setQ(max(presetValues[Slot.formantQ], 0.1))
        formant.setMix(dry: presetValues[Slot.dryMix], f1: presetValues[Slot.f1Mix], f2: presetValues[Slot.f2Mix])
    }

    @inline(__always)
    func fastPow(_ base: Float, _ exponent: Float) -> Float { ControlMath.exp2(exponent * ControlMath.log2(base)) }

    // MARK: State updates (audio thread, from commands and control ticks)

    /// Level targets from the face levels, the smile shimmer and the arpeggiator.
    func updateToneTargets() {
        let cap = Self.unit(Float(currentPreset.brightnessCap))
        for i in 0..<6 { levelTargets[i] = faceLevels[i] }
        levelTargets[5] = max(faceLevels[5], sculpt[4] * cap)
        if arpEnabled { updateGateTargets() }
    }

    func updateGateTargets() {
        guard arpEnabled else {
            for i in 0..<6 { gateTargets[i] = 1 }
            return
        }
        // The step's tone: the (step mod active count)-th active tone in rising pitch order.
        var active = 0
        for k in 0..<6 where faceLevels[Self.pitchOrderBank(k)] > Self.arpThreshold { active += 1 }
        var chosen = 0
        if active > 0 {
            var wanted = arpStep % active
            for k in 0..<6 {
                let bank = Self.pitchOrderBank(k)
                guard faceLevels[bank] > Self.arpThreshold else { continue }
                if wanted == 0 {
                    chosen = bank
                    break
                }
                wanted -= 1
            }
        }
        arpCurrentBank = chosen
        let open: Float = arpStepPhase < Self.arpGateLength ? 1 : 0
        for i in 0..<6 { gateTargets[i] = i == chosen && active > 0 ? open : 0 }
    }

    /// Bank index of the k-th tone in rising pitch order (root, third, fifth, seventh, octave, ninth).
    @inline(__always)
    static func pitchOrderBank(_ k: Int) -> Int {
        switch k {
        case 0: 0
        case 1: 1
        case 2: 2
        case 3: 3
        case 4: 5
        default: 4
        }
    }

    /// Sets glide targets for the current key and chord.
    func retune() {
        let base = (keyIndex * 7 + degreeIndex) * Self.voicingStride
        for i in 0..<6 { frequencyTargets[i] = Self.noteFrequency(voicings[base + i]) }
        subFrequency.target = Self.noteFrequency(voicings[base + 6])
        bassFrequency.target = Self.noteFrequency(voicings[base + 7])
        droneFrequencies.rootTarget = Self.noteFrequency(voicings[base + 8])
        droneFrequencies.fifthTarget = Self.noteFrequency(voicings[base + 9])
        glidesSettled = false
    }

    @inline(__always)
    static func noteFrequency(_ note: Int32) -> Float {
        Float(DroneVoicing.frequency(Int(note)))
    }

    func snapGlides() {
        frequencies = frequencyTargets
        banks.setFrequencies(frequencies)
        subFrequency.current = subFrequency.target
        bassFrequency.current = bassFrequency.target
        droneFrequencies.root = droneFrequencies.rootTarget
        droneFrequencies.fifth = droneFrequencies.fifthTarget
        pedal.setFrequencies(SIMD4(subFrequency.current, droneFrequencies.root, droneFrequencies.fifth, 0))
        bass.setFrequency(bassFrequency.current)
        glidesSettled = true
    }

    func updateTempo() {
        arpStepIncrement = bpm / 60 / arpDivisionBeats / sampleRate
        tremolo.setRate(.synced(tremoloDivision, bpm: bpm))
    }

    func applyPreset(_ preset: VoicePreset) {
        let discreteChange = preset.waveform != currentPreset.waveform || preset.detuneCents != currentPreset.detuneCents
            || preset.reverbSize != currentPreset.reverbSize
        currentPreset = preset
        writePresetTargets(preset)
        reverb.decayTime = Float(preset.reverbDecay)
        reverb.damping = Float(preset.reverbDamping)
        breath.setRate(.hertz(preset.breathRate))
        updateToneTargets()
        if discreteChange {
            swapPreset = preset
            isSwapPending = true
        }
    }

    /// The settings that cannot glide, all at once (prepare and reset).
    func applyDiscrete(_ preset: VoicePreset) {
        applyVoiceShape(preset)
        applyRoom(preset)
    }

    /// Waveform and detune: swapped at the bottom of a pack change's dip.
    func applyVoiceShape(_ preset: VoicePreset) {
        let waveform = Self.waveform(preset.waveform)
        banks.waveform = waveform
        banks.setDetune(cents: Float(preset.detuneCents))
        bass.waveform = preset.waveform == .sine ? .sine : .triangle
    }

    /// Room size, decay and damping: changed right after the reverb has rendered the dip's bottom.
    func applyRoom(_ preset: VoicePreset) {
        let size = Float(0.5 + 1.5 * preset.reverbSize)
        if size != reverb.size {
            reverb.size = size
            // New line lengths would re-read the old tail at new offsets; the step that makes would
            // circulate and come back once per loop. The return is muted here, so start the room clean.
            reverb.reset()
        }
        reverb.decayTime = Float(preset.reverbDecay)
        reverb.damping = Float(preset.reverbDamping)
        breath.setRate(.hertz(preset.breathRate))
    }

    func writePresetTargets(_ p: VoicePreset) {
        controlSettled = false
        presetTargets[Slot.cutoffMin] = Float(p.filterCutoffMin)
        presetTargets[Slot.cutoffMax] = Float(p.filterCutoffMax)
        presetTargets[Slot.resonanceMin] = Float(p.filterResonanceMin)
        presetTargets[Slot.resonanceMax] = Float(p.filterResonanceMax)
        presetTargets[Slot.f1Min] = Float(p.formantF1Min)
        presetTargets[Slot.f1Max] = Float(p.formantF1Max)
        presetTargets[Slot.f2Min] = Float(p.formantF2Min)
        presetTargets[Slot.f2Max] = Float(p.formantF2Max)
        presetTargets[Slot.formantQ] = Float(p.formantQ)
        presetTargets[Slot.dryMix] = Self.unit(Float(p.formantDryMix))
        presetTargets[Slot.f1Mix] = Self.unit(Float(p.formantF1Mix))
        presetTargets[Slot.f2Mix] = Self.unit(Float(p.formantF2Mix))
        presetTargets[Slot.reverbMix] = Self.unit(Float(p.reverbMix))
        presetTargets[Slot.subLevel] = Self.unit(Float(p.subLevel))
        presetTargets[Slot.bassLevel] = Self.unit(Float(p.bassLevel))
        presetTargets[Slot.droneLevel] = Self.unit(Float(p.droneLevel))
        presetTargets[Slot.breathDepth] = min(Self.unit(Float(p.breathDepth)), 0.5)
    }

    static func waveform(_ shape: OscillatorWaveform) -> Waveform {
        switch shape {
        case .sine: .sine
        case .triangle: .triangle
        case .sawtooth: .saw
        case .square: .square
        }
    }
}
