import Touchstone

extension DroneSynthEngine {
    /// A pack change: the continuous numbers glide at once (`DroneControls`), the room's decay and
    /// damping and the breathing rate follow at once (each smooths itself), and a change of waveform,
    /// detune or room size waits for the bottom of a `PackChangeDip`.
    func applyPreset(_ preset: VoicePreset) {
        let discreteChange = preset.waveform != currentPreset.waveform || preset.detuneCents != currentPreset.detuneCents
            || preset.reverbSize != currentPreset.reverbSize
        currentPreset = preset
        controls.setPresetTargets(preset)
        effects.setDecay(preset)
        breathing.setRate(preset.breathRate)
        updateToneTargets()
        if discreteChange {
            incomingPreset = preset
            dip.begin()
        }
    }

    /// The settings that cannot glide, all at once (prepare and reset).
    func applyDiscrete(_ preset: VoicePreset) {
        applyVoiceShape(preset)
        applyRoom(preset)
    }

    /// Waveform and detune: swapped at the bottom of a pack change's dip.
    func applyVoiceShape(_ preset: VoicePreset) {
        tones.banks.waveform = Self.waveform(preset.waveform)
        tones.banks.setDetune(cents: Float(preset.detuneCents))
        pedals.setShape(preset.waveform)
    }

    /// Room size, decay and damping and the breathing rate: changed right after the reverb has
    /// rendered the dip's bottom, where its return is muted.
    func applyRoom(_ preset: VoicePreset) {
        effects.setRoom(preset)
        breathing.setRate(preset.breathRate)
    }

    /// Whether every number in `p` is finite (what could poison the DSP; ranges are checked where
    /// packs are loaded).
    static func isFinite(_ p: VoicePreset) -> Bool {
        // x · 0 is 0 for every finite x and NaN otherwise, so one bad field makes the sum NaN.
        var sum = p.detuneCents * 0 + p.filterCutoffMin * 0 + p.filterCutoffMax * 0 + p.filterResonanceMin * 0
        sum += p.filterResonanceMax * 0 + p.formantF1Min * 0 + p.formantF1Max * 0 + p.formantF2Min * 0
        sum += p.formantF2Max * 0 + p.formantQ * 0 + p.formantDryMix * 0 + p.formantF1Mix * 0 + p.formantF2Mix * 0
        sum += p.reverbSize * 0 + p.reverbDecay * 0 + p.reverbDamping * 0 + p.reverbMix * 0 + p.subLevel * 0
        sum += p.bassLevel * 0 + p.droneLevel * 0 + p.brightnessCap * 0 + p.breathRate * 0 + p.breathDepth * 0
        return sum == 0
    }

    /// Touchstone's oscillator waveform for a preset's.
    static func waveform(_ shape: OscillatorWaveform) -> Waveform {
        switch shape {
        case .sine: .sine
        case .triangle: .triangle
        case .sawtooth: .saw
        case .square: .square
        }
    }
}
