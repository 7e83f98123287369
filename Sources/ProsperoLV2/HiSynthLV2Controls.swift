import HiSynth

/// HiSynth's control ports: every field of a preset, with the ranges `HiSynthPreset`'s parts declare.
/// Values are in the preset's own units (percent where the preset stores percent), so a preset's values
/// are its port values and a preset string round-trips through the ports exactly.
///
/// Symbols are stable; new fields go at the end.
public enum HiSynthLV2Controls {
    typealias C = LV2ModelControl<HiSynthPreset>
    typealias O = HiSynthPreset.Oscillator
    typealias E = HiSynthPreset.Envelope
    typealias F = HiSynthPreset.Filter
    typealias L = HiSynthPreset.LFO

    /// The controls in port order, defaults from `defaultPreset`.
    public static let all: [LV2ModelControl<HiSynthPreset>] = {
        var list: [C] = []
        let waveforms = HiSynthWaveform.allCases.map(\.name)
        for i in 0..<HiSynthPreset.oscillatorCount {
            let p = "osc\(i + 1)", n = "Osc \(i + 1)"
            list.append(C("\(p)_waveform", "\(n) waveform", .enumeration(waveforms, defaultIndex: 0),
                          read: { Float($0.oscillators[i].waveform.rawValue) },
                          write: { $0.oscillators[i].waveform = HiSynthWaveform(rawValue: Int8($1)) ?? .sine }))
            list.append(C("\(p)_level", "\(n) level", LV2Control(range: stored(O.levelRange), defaultValue: 0.75),
                          read: { Float($0.oscillators[i].level) }, write: { $0.oscillators[i].level = Float16($1) }))
            list.append(C("\(p)_pitch", "\(n) pitch", LV2Control(range: stored(O.pitchRange), defaultValue: 0, unit: .semitones),
                          read: { Float($0.oscillators[i].pitch) }, write: { $0.oscillators[i].pitch = Float16($1) }))
        }
        list.append(C("attack", "Attack", LV2Control(range: stored(E.attackRange), defaultValue: 0, unit: .seconds),
                      read: { Float($0.envelope.attack) }, write: { $0.envelope.attack = Float16($1) }))
        list.append(C("decay", "Decay", LV2Control(range: stored(E.decayRange), defaultValue: 0.5, unit: .seconds),
                      read: { Float($0.envelope.decay) }, write: { $0.envelope.decay = Float16($1) }))
        list.append(C("sustain", "Sustain", LV2Control(range: stored(E.sustainRange), defaultValue: 1),
                      read: { Float($0.envelope.sustain) }, write: { $0.envelope.sustain = Float16($1) }))
        list.append(C("release", "Release", LV2Control(range: stored(E.releaseRange), defaultValue: 0.05, unit: .seconds, style: .logarithmic),
                      read: { Float($0.envelope.release) }, write: { $0.envelope.release = Float16($1) }))
        list.append(C("lp_cutoff", "Low-pass cutoff", LV2Control(range: stored(F.baseCutoffRange), defaultValue: 22_050, unit: .hertz),
                      read: { Float($0.filters.lowPass.cutoff) }, write: { $0.filters.lowPass.cutoff = Float16($1) }))
        list.append(C("lp_resonance", "Low-pass resonance", LV2Control(range: stored(F.resonanceRange), defaultValue: 0, unit: .decibels),
                      read: { Float($0.filters.lowPass.resonance) }, write: { $0.filters.lowPass.resonance = Float16($1) }))
        list.append(C("hp_cutoff", "High-pass cutoff", LV2Control(range: stored(F.baseCutoffRange), defaultValue: 0, unit: .hertz),
                      read: { Float($0.filters.highPass.cutoff) }, write: { $0.filters.highPass.cutoff = Float16($1) }))
        list.append(C("hp_resonance", "High-pass resonance", LV2Control(range: stored(F.resonanceRange), defaultValue: 0, unit: .decibels),
                      read: { Float($0.filters.highPass.resonance) }, write: { $0.filters.highPass.resonance = Float16($1) }))
        for i in 0..<HiSynthPreset.lfoCount {
            let p = "lfo\(i + 1)", n = "LFO \(i + 1)"
            list.append(C("\(p)_waveform", "\(n) waveform", .enumeration(waveforms, defaultIndex: 0),
                          read: { Float($0.lfos[i].waveform.rawValue) },
                          write: { $0.lfos[i].waveform = HiSynthWaveform(rawValue: Int8($1)) ?? .sine }))
            list.append(C("\(p)_depth", "\(n) depth", LV2Control(range: stored(L.depthRange), defaultValue: 0),
                          read: { Float($0.lfos[i].depth) }, write: { $0.lfos[i].depth = Float16($1) }))
            list.append(C("\(p)_speed", "\(n) speed", LV2Control(range: stored(L.speedRange), defaultValue: 2, unit: .hertz),
                          read: { Float($0.lfos[i].speed) }, write: { $0.lfos[i].speed = Float16($1) }))
            list.append(C("\(p)_phase", "\(n) phase", LV2Control(range: stored(L.phaseRange), defaultValue: 0),
                          read: { Float($0.lfos[i].phase) }, write: { $0.lfos[i].phase = Float16($1) }))
            list.append(C("\(p)_to_pitch", "\(n) → pitch", .toggle(false),
                          read: { $0.lfos[i].pitch ? 1 : 0 }, write: { $0.lfos[i].pitch = $1 >= 0.5 }))
            list.append(C("\(p)_to_amplitude", "\(n) → amplitude", .toggle(false),
                          read: { $0.lfos[i].amplitude ? 1 : 0 }, write: { $0.lfos[i].amplitude = $1 >= 0.5 }))
            list.append(C("\(p)_to_lp", "\(n) → low-pass", .toggle(false),
                          read: { $0.lfos[i].filterLow ? 1 : 0 }, write: { $0.lfos[i].filterLow = $1 >= 0.5 }))
            list.append(C("\(p)_to_hp", "\(n) → high-pass", .toggle(false),
                          read: { $0.lfos[i].filterHigh ? 1 : 0 }, write: { $0.lfos[i].filterHigh = $1 >= 0.5 }))
        }
        typealias D = HiSynthPreset.Decimator
        typealias R = HiSynthPreset.Drive
        typealias Y = HiSynthPreset.Delay
        typealias V = HiSynthPreset.Reverb
        list.append(C("decimator_on", "Decimator", .toggle(false),
                      read: { $0.effects.decimator.on ? 1 : 0 }, write: { $0.effects.decimator.on = $1 >= 0.5 }))
        list.append(C("decimator_rate", "Decimator rate", LV2Control(range: stored(D.rateRange), defaultValue: 20, unit: .percent),
                      read: { Float($0.effects.decimator.rate) }, write: { $0.effects.decimator.rate = Float16($1) }))
        list.append(C("decimator_mix", "Decimator mix", LV2Control(range: stored(D.mixRange), defaultValue: 50, unit: .percent),
                      read: { Float($0.effects.decimator.mix) }, write: { $0.effects.decimator.mix = Float16($1) }))
        list.append(C("drive_on", "Drive", .toggle(false),
                      read: { $0.effects.drive.on ? 1 : 0 }, write: { $0.effects.drive.on = $1 >= 0.5 }))
        list.append(C("drive_gain", "Drive gain", LV2Control(range: stored(R.gainRange), defaultValue: 10, unit: .decibels),
                      read: { Float($0.effects.drive.gain) }, write: { $0.effects.drive.gain = Float16($1) }))
        list.append(C("drive_mix", "Drive mix", LV2Control(range: stored(R.mixRange), defaultValue: 50, unit: .percent),
                      read: { Float($0.effects.drive.mix) }, write: { $0.effects.drive.mix = Float16($1) }))
        list.append(C("delay_on", "Delay", .toggle(false),
                      read: { $0.effects.delay.on ? 1 : 0 }, write: { $0.effects.delay.on = $1 >= 0.5 }))
        list.append(C("delay_feedback", "Delay feedback", LV2Control(range: stored(Y.feedbackRange), defaultValue: 50, unit: .percent),
                      read: { Float($0.effects.delay.feedback) }, write: { $0.effects.delay.feedback = Float16($1) }))
        list.append(C("delay_time", "Delay time", LV2Control(range: stored(Y.timeRange), defaultValue: 0.5, unit: .seconds),
                      read: { Float($0.effects.delay.time) }, write: { $0.effects.delay.time = Float16($1) }))
        list.append(C("delay_mix", "Delay mix", LV2Control(range: stored(Y.mixRange), defaultValue: 50, unit: .percent),
                      read: { Float($0.effects.delay.mix) }, write: { $0.effects.delay.mix = Float16($1) }))
        list.append(C("reverb_on", "Reverb", .toggle(false),
                      read: { $0.effects.reverb.on ? 1 : 0 }, write: { $0.effects.reverb.on = $1 >= 0.5 }))
        list.append(C("reverb_type", "Reverb type", .enumeration(HiSynthReverbType.allCases.map(\.name), defaultIndex: 0),
                      read: { Float($0.effects.reverb.type.rawValue) },
                      write: { $0.effects.reverb.type = HiSynthReverbType(rawValue: Int8($1)) ?? .plate }))
        list.append(C("reverb_size", "Reverb size", LV2Control(range: stored(V.sizeRange), defaultValue: 2),
                      read: { Float($0.effects.reverb.size) }, write: { $0.effects.reverb.size = Float16($1) }))
        list.append(C("reverb_mix", "Reverb mix", LV2Control(range: stored(V.mixRange), defaultValue: 1),
                      read: { Float($0.effects.reverb.mix) }, write: { $0.effects.reverb.mix = Float16($1) }))
        // The defaults are the default preset's values, so an instance starts as `prospero hisynth render` does.
        return list.map { c in
            var c = c
            c.control.defaultValue = c.control.clamp(c.read(defaultPreset))
            return c
        }
    }()

    /// `range` widened to the nearest half-precision values outside it: a preset stores every number as a
    /// `Float16`, so a bound like 0.05 s is stored as 0.049987793 s, and a factory preset's value must be a
    /// port value as it is (the engine clamps to the model's own range either way).
    static func stored(_ range: ClosedRange<Float>) -> ClosedRange<Float> {
        min(range.lowerBound, Float(Float16(range.lowerBound)))...max(range.upperBound, Float(Float16(range.upperBound)))
    }

    /// The preset an instance starts with: HiSynth Key, the original app's (and `hisynth render`'s) first.
    public static var defaultPreset: HiSynthPreset { HiSynthPreset.factory[0] }

    /// `preset`'s port values, in port order (unclamped: a preset's value is restored as it is stored).
    public static func values(of preset: HiSynthPreset) -> [Float] { all.map { $0.read(preset) } }
}
