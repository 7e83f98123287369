import Touchstone

/// The numbers that move slowly, smoothed at the control rate (every `DroneSynthEngine.controlInterval`
/// samples): the face's five sculpt amounts (0…1, one-pole over `DroneSynthEngine.sculptSmoothingTime`)
/// and the preset's continuous numbers (`Slot`, one-pole over `DroneSynthEngine.presetSmoothingTime`,
/// so a pack change glides its filter ranges, mixes and levels instead of jumping).
///
/// Each step lands exactly on its target once within a millionth of it, so the controls settle and
/// the engine's control ticks skip them until a target moves again.
struct DroneControls {
    /// Indices of the preset's continuous numbers.
    enum Slot {
        /// Low-pass cutoff range (Hz) and resonance range (Q).
        static let cutoffMin = 0, cutoffMax = 1, resonanceMin = 2, resonanceMax = 3
        /// Formant F1 and F2 ranges (Hz) and their Q.
        static let f1Min = 4, f1Max = 5, f2Min = 6, f2Max = 7, formantQ = 8
        /// Formant dry / F1 / F2 mix and reverb wet mix, 0…1.
        static let dryMix = 9, f1Mix = 10, f2Mix = 11, reverbMix = 12
        /// Sub, bass and drone levels (0…1) and breathing depth (0…0.5).
        static let subLevel = 13, bassLevel = 14, droneLevel = 15, breathDepth = 16
        static let count = 17
    }

    /// Indices of the sculpt amounts.
    enum Sculpt {
        static let cutoff = 0, resonance = 1, formantF1 = 2, formantF2 = 3, brightness = 4
        static let count = 5
    }

    /// Sculpt amounts, target and smoothed (lanes 0…4, `Sculpt`).
    private(set) var sculptTargets: SIMD8<Float> = .zero
    private(set) var sculpt: SIMD8<Float> = .zero
    /// Preset numbers, target and smoothed (lanes 0…16, `Slot`).
    private(set) var presetTargets: SIMD32<Float> = .zero
    private(set) var preset: SIMD32<Float> = .zero
    /// One-pole coefficients per control tick.
    private var sculptCoefficient: Float = 1
    private var presetCoefficient: Float = 1
    /// Every value sits on its target; cleared by every write to a target.
    private(set) var isSettled = false

    /// Coefficients for a control rate of `controlRate` ticks per second.
    mutating func prepare(controlRate: Double) {
        sculptCoefficient = OnePoleSmoother.coefficient(timeConstant: DroneSynthEngine.sculptSmoothingTime, sampleRate: controlRate)
        presetCoefficient = OnePoleSmoother.coefficient(timeConstant: DroneSynthEngine.presetSmoothingTime, sampleRate: controlRate)
    }

    /// Every value jumps to its target.
    mutating func snap() {
        preset = presetTargets
        sculpt = sculptTargets
        isSettled = false
    }

    /// Sets one sculpt amount's target (`Sculpt` index); the value is clamped to 0…1 by the caller.
    mutating func setSculpt(_ index: Int, _ amount: Float) {
        sculptTargets[index] = amount
        isSettled = false
    }

    /// Sets one preset number's target (`Slot` index).
    mutating func setPreset(_ slot: Int, _ value: Float) {
        presetTargets[slot] = value
        isSettled = false
    }

    /// The targets of a voice preset's continuous numbers; mixes and levels clamped to 0…1, the
    /// breathing depth to 0…0.5 (deeper would silence the voice at the bottom of each breath).
    mutating func setPresetTargets(_ p: VoicePreset) {
        isSettled = false
        presetTargets[Slot.cutoffMin] = Float(p.filterCutoffMin)
        presetTargets[Slot.cutoffMax] = Float(p.filterCutoffMax)
        presetTargets[Slot.resonanceMin] = Float(p.filterResonanceMin)
        presetTargets[Slot.resonanceMax] = Float(p.filterResonanceMax)
        presetTargets[Slot.f1Min] = Float(p.formantF1Min)
        presetTargets[Slot.f1Max] = Float(p.formantF1Max)
        presetTargets[Slot.f2Min] = Float(p.formantF2Min)
        presetTargets[Slot.f2Max] = Float(p.formantF2Max)
        presetTargets[Slot.formantQ] = Float(p.formantQ)
        presetTargets[Slot.dryMix] = DroneSynthEngine.unit(Float(p.formantDryMix))
        presetTargets[Slot.f1Mix] = DroneSynthEngine.unit(Float(p.formantF1Mix))
        presetTargets[Slot.f2Mix] = DroneSynthEngine.unit(Float(p.formantF2Mix))
        presetTargets[Slot.reverbMix] = DroneSynthEngine.unit(Float(p.reverbMix))
        presetTargets[Slot.subLevel] = DroneSynthEngine.unit(Float(p.subLevel))
        presetTargets[Slot.bassLevel] = DroneSynthEngine.unit(Float(p.bassLevel))
        presetTargets[Slot.droneLevel] = DroneSynthEngine.unit(Float(p.droneLevel))
        presetTargets[Slot.breathDepth] = min(DroneSynthEngine.unit(Float(p.breathDepth)), 0.5)
    }

    /// One control tick: every value one smoothing step nearer its target. Returns whether any moved
    /// (nothing moves once settled).
    mutating func step() -> Bool {
        guard !isSettled else { return false }
        var moved = false
        for s in 0..<Sculpt.count {
            let value = Self.approach(sculpt[s], sculptTargets[s], coefficient: sculptCoefficient)
            if value != sculpt[s] { moved = true }
            sculpt[s] = value
        }
        for s in 0..<Slot.count {
            let value = Self.approach(preset[s], presetTargets[s], coefficient: presetCoefficient)
            if value != preset[s] { moved = true }
            preset[s] = value
        }
        isSettled = !moved
        return moved
    }

    /// One smoothing step that lands exactly on the target once within a millionth of it (a plain
    /// one-pole in Float can stall one rounding step short and never settle).
    @inline(__always)
    static func approach(_ current: Float, _ target: Float, coefficient: Float) -> Float {
        let next = rtOnePole(current, target: target, coefficient: coefficient)
        return abs(target - next) <= 1e-6 * (abs(target) + 1e-3) ? target : next
    }
}
