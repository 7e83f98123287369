import Foundation
import Touchstone

/// Low-pass then high-pass, both resonant 2-pole (spec §1, Filters), on the mono voice sum.
///
/// The original uses Apple's AULowPassFilter and AUHighPassFilter, whose resonance in dB is the
/// response's gain at the cutoff. The RBJ cookbook low- and high-pass with Q = 10^(dB/20) have exactly
/// that gain at the cutoff, and Touchstone's trapezoidal state-variable filter (g = tan(π·fc/fs),
/// k = 1/Q) realises the same bilinear-transformed transfer function as the RBJ biquad, while staying
/// clean when the cutoff moves every sample; so the filters here are `StateVariableFilter`s with the
/// RBJ response (HiSynthFilterTests measures −3 dB points and peaks against the RBJ formula).
///
/// Clamps (documented ranges of the kernel): Q to 0.1…50, so resonance above +34 dB acts as +34 dB
/// (−20 dB gives Q 0.1, the kernel's lower bound, exactly); cutoff to 10 Hz … min(22 050 Hz, 0.49·fs)
/// (20 580 Hz at 42 kHz, 21 609 Hz at 44.1 kHz): the original's AU accepts up to 22 050 Hz at any rate.
/// Base cutoffs and resonances glide over 20 ms (in pitch); LFO offsets glide across each control run.
struct HiSynthFilterStage {
    static let minimumCutoff: Float = 10
    static let maximumCutoff: Float = 22_050
    static let baseSmoothingTime = 0.02

    var lowPass = StateVariableFilter(mode: .lowPass, cutoff: 22_000, q: 1, smoothingTime: 0)
    var highPass = StateVariableFilter(mode: .highPass, cutoff: 10, q: 1, smoothingTime: 0)
    var lowBase = SmoothedParameter(initialValue: 22_000, style: .linear, rampTime: baseSmoothingTime)
    var highBase = SmoothedParameter(initialValue: 0, style: .linear, rampTime: baseSmoothingTime)
    var lowQ = SmoothedParameter(initialValue: 1, style: .multiplicative, rampTime: baseSmoothingTime)
    var highQ = SmoothedParameter(initialValue: 1, style: .multiplicative, rampTime: baseSmoothingTime)
    var sampleRate = 44_100.0
    var maximum: Float = 21_609

    mutating func prepare(sampleRate: Double) {
        self.sampleRate = sampleRate
        maximum = min(Self.maximumCutoff, Float(0.49 * sampleRate))
        let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 1)
        lowPass.prepare(spec)
        highPass.prepare(spec)
        // The per-run glide: a new LFO target is reached at the end of one control run.
        let run = Double(HiSynthModulation.controlInterval) / sampleRate
        lowPass.setSmoothingTime(run)
        highPass.setSmoothingTime(run)
        for p in [\HiSynthFilterStage.lowBase, \.highBase, \.lowQ, \.highQ] { self[keyPath: p].prepare(sampleRate: sampleRate) }
    }

    mutating func reset() {
        lowPass.reset()
        highPass.reset()
    }

    /// Q for a resonance in dB: 10^(dB/20).
    static func q(resonance decibels: Float) -> Float {
        Float(Foundation.pow(10, Double(decibels) / 20))
    }

    /// New base values (glide unless `snap`).
    mutating func apply(low: HiSynthSettings.Filter, high: HiSynthSettings.Filter, snap: Bool) {
        let lq = Self.q(resonance: low.resonance), hq = Self.q(resonance: high.resonance)
        if snap {
            lowBase.snap(to: low.cutoff); highBase.snap(to: high.cutoff)
            lowQ.snap(to: lq); highQ.snap(to: hq)
            lowPass.setImmediately(cutoff: clampCutoff(low.cutoff), q: lq)
            highPass.setImmediately(cutoff: clampCutoff(high.cutoff), q: hq)
        } else {
            lowBase.setTarget(low.cutoff); highBase.setTarget(high.cutoff)
            lowQ.setTarget(lq); highQ.setTarget(hq)
        }
    }

    @inline(__always)
    func clampCutoff(_ hz: Float) -> Float {
        hz > Self.minimumCutoff ? min(hz, maximum) : Self.minimumCutoff
    }

    /// At a control tick: advances the base glides by one run and aims both filters at base × factor.
    mutating func control(lowFactor: Float, highFactor: Float, runLength: Int) {
        let lb = lowBase.skip(runLength), hb = highBase.skip(runLength)
        let lq = lowQ.skip(runLength), hq = highQ.skip(runLength)
        let lowTarget = clampCutoff(lb * lowFactor)
        let highTarget = clampCutoff(hb * highFactor)
        if lowTarget != lowPass.cutoff { lowPass.setCutoff(lowTarget) }
        if highTarget != highPass.cutoff { highPass.setCutoff(highTarget) }
        if lq != lowPass.q { lowPass.setQ(lq) }
        if hq != highPass.q { highPass.setQ(hq) }
    }

    /// Low-pass then high-pass over `buffer`, in place, in one pass (the two recursions overlap).
    mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        StateVariableFilter.processSeries(buffer, first: &lowPass, as: LowPassResponse.self,
                                          second: &highPass, as: HighPassResponse.self)
    }

    var currentLowCutoff: Float { lowPass.cutoff }
    var currentHighCutoff: Float { highPass.cutoff }
}
