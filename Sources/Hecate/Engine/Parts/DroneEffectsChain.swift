import Horatio
import Touchstone

/// Hecate's effects, in signal order: the SVF low-pass and the formant pair (F1 ∥ F2 band-passes with
/// a dry/F1/F2 mix) on the mono voice, then the stereo FDN room and the BPM-synced tremolo.
///
/// The filters' targets move at the control rate (`follow(_:sampleRate:)`, from the smoothed sculpt
/// amounts and preset ranges) and ramp per sample inside the filters, cutoffs in the pitch domain.
/// The room is fed the mono voice and mixed back with per-sample dry and wet gains, so a pack change
/// can dip its return while the room changes size.
final class DroneEffectsChain {
    @exclusivity(unchecked) var lowPass = StateVariableFilter(mode: .lowPass, cutoff: 900, q: 0.7)
    @exclusivity(unchecked) var formant = FormantFilter()
    let reverb = FeedbackDelayNetworkReverb(decayTime: 4, size: 1, damping: 0.4, mix: 1)
    @exclusivity(unchecked) var tremolo = Tremolo(waveform: .sine, rate: .synced(.quarter, bpm: 90), depth: 0, edgeSmoothingTime: 0.004)
    /// The tremolo's period as a note division of the tempo.
    @exclusivity(unchecked) var tremoloDivision = NoteDivision.quarter
    /// The room's two channels for one chunk, `capacity` samples each.
    @exclusivity(unchecked) private var roomLeft: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var roomRight: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var sampleRate = 48_000.0

    /// - Parameter capacity: the longest chunk before the first `prepare`, in samples.
    init(capacity: Int) {
        self.capacity = capacity
        roomLeft = Self.buffer(capacity)
        roomRight = Self.buffer(capacity)
    }

    deinit {
        roomLeft.deallocate()
        roomRight.deallocate()
    }

    /// Sizes the room buffers for `spec.maximumBlockSize` and prepares every effect; the filters
    /// ramp over one control interval (`controlTime`, seconds) and the formant mix starts at `preset`'s.
    func prepare(_ spec: ProcessSpec, controlTime: Double, preset: VoicePreset) {
        sampleRate = spec.sampleRate
        if spec.maximumBlockSize > capacity {
            roomLeft.deallocate()
            roomRight.deallocate()
            capacity = spec.maximumBlockSize
            roomLeft = Self.buffer(capacity)
            roomRight = Self.buffer(capacity)
        }
        lowPass = StateVariableFilter(mode: .lowPass, cutoff: lowPass.cutoff, q: lowPass.q, smoothingTime: controlTime)
        lowPass.prepare(spec)
        formant = FormantFilter(
            vowel: .a, q: Float(preset.formantQ),
            mix: (Float(preset.formantDryMix), Float(preset.formantF1Mix), Float(preset.formantF2Mix)),
            smoothingTime: controlTime)
        formant.prepare(spec)
        reverb.prepare(spec)
        tremolo.prepare(spec)
    }

    func reset() {
        lowPass.reset()
        formant.reset()
        reverb.reset()
        tremolo.reset()
    }

    /// Filter targets from the smoothed controls: cutoff swept in the pitch domain (equal face
    /// movement, equal musical interval), resonance and formants linearly, all below 0.45 × the rate.
    func follow(_ controls: DroneControls) {
        typealias Slot = DroneControls.Slot
        typealias Sculpt = DroneControls.Sculpt
        let p = controls.preset, sculpt = controls.sculpt
        let cutoffMin = max(p[Slot.cutoffMin], 20)
        let cutoffMax = max(p[Slot.cutoffMax], cutoffMin)
        let cutoff = cutoffMin * ControlMath.exp2(sculpt[Sculpt.cutoff] * ControlMath.log2(cutoffMax / cutoffMin))
        let q = p[Slot.resonanceMin] + (p[Slot.resonanceMax] - p[Slot.resonanceMin]) * sculpt[Sculpt.resonance]
        let f1 = p[Slot.f1Min] + (p[Slot.f1Max] - p[Slot.f1Min]) * sculpt[Sculpt.formantF1]
        let f2 = p[Slot.f2Min] + (p[Slot.f2Max] - p[Slot.f2Min]) * sculpt[Sculpt.formantF2]
        let nyquistLimit = Float(0.45 * sampleRate)
        lowPass.setCutoff(min(cutoff, nyquistLimit))
        lowPass.setQ(max(q, 0.1))
        formant.setFormants(f1: min(f1, nyquistLimit), f2: min(f2, nyquistLimit))
        formant.setQ(max(p[Slot.formantQ], 0.1))
        formant.setMix(dry: p[Slot.dryMix], f1: p[Slot.f1Mix], f2: p[Slot.f2Mix])
    }

    /// Tremolo period from the tempo (quarter notes per minute).
    func setTempo(bpm: Double) {
        tremolo.setRate(.synced(tremoloDivision, bpm: bpm))
    }

    /// Low-pass then formants over one control run of the mono voice, in place (in one pass while both
    /// are settled).
    @inline(__always)
    func filter(_ voice: UnsafeMutableBufferPointer<Float>) {
        formant.process(voice, after: &lowPass, as: LowPassResponse.self)
    }

    /// The room and the tremolo over one chunk of `count` samples (≤ the prepared block size):
    /// left/right = voice × dry gain + room × wet gain, then the tremolo on both.
    func process(voice: UnsafePointer<Float>, dryGains: UnsafePointer<Float>, wetGains: UnsafePointer<Float>,
                 left l: UnsafeMutablePointer<Float>, right r: UnsafeMutablePointer<Float>, count: Int) {
        roomLeft.update(from: voice, count: count)
        roomRight.update(from: voice, count: count)
        reverb.process(left: UnsafeMutableBufferPointer(start: roomLeft, count: count),
                       right: UnsafeMutableBufferPointer(start: roomRight, count: count))
        for i in 0..<count {
            let dry = voice[i] * dryGains[i]
            l[i] = dry + roomLeft[i] * wetGains[i]
            r[i] = dry + roomRight[i] * wetGains[i]
        }
        tremolo.process(left: UnsafeMutableBufferPointer(start: l, count: count),
                        right: UnsafeMutableBufferPointer(start: r, count: count))
    }

    /// Room size (0…1 → 0.5…2), decay and damping from `preset`; a new size starts the room empty.
    func setRoom(_ preset: VoicePreset) {
        let size = Float(0.5 + 1.5 * preset.reverbSize)
        if size != reverb.size {
            reverb.size = size
            // New line lengths would re-read the old tail at new offsets; the step that makes would
            // circulate and come back once per loop. The return is muted here, so start the room clean.
            reverb.reset()
        }
        setDecay(preset)
    }

    /// Decay time and damping from `preset`; the room smooths both, so they change with the command.
    func setDecay(_ preset: VoicePreset) {
        reverb.decayTime = Float(preset.reverbDecay)
        reverb.damping = Float(preset.reverbDamping)
    }

    private static func buffer(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        p.initialize(repeating: 0, count: count)
        return p
    }
}
