import Ariel

/// The poly synth's control ports: every `PolySynthSettings` field (the options of `prospero render`),
/// ranges from `PolySynthSettings.Ranges`, defaults from `PolySynthSettings()`. Symbols are stable.
public enum PolySynthLV2Controls {
    typealias C = LV2ModelControl<PolySynthSettings>
    typealias R = PolySynthSettings.Ranges
    typealias S = PolySynthSettings

    static func number(
        _ symbol: String, _ name: String, _ range: ClosedRange<Double>, _ path: WritableKeyPath<S, Double> & Sendable,
        unit: LV2Unit? = nil, style: LV2Control.Style = .continuous
    ) -> C {
        C(symbol, name, LV2Control(range: range, defaultValue: S()[keyPath: path], unit: unit, style: style),
          read: { Float($0[keyPath: path]) }, write: { $0[keyPath: path] = Double($1) })
    }

    static func toggle(_ symbol: String, _ name: String, _ path: WritableKeyPath<S, Bool> & Sendable) -> C {
        C(symbol, name, .toggle(S()[keyPath: path]), read: { $0[keyPath: path] ? 1 : 0 }, write: { $0[keyPath: path] = $1 >= 0.5 })
    }

    /// The controls in port order.
    public static let all: [LV2ModelControl<PolySynthSettings>] = {
        let waves = S.Waveform.allCases, modes = S.LFOMode.allCases
        return [
            C("waveform", "Waveform", .enumeration(waves.map(\.rawValue), defaultIndex: waves.firstIndex(of: S().waveform)!),
              read: { Float(waves.firstIndex(of: $0.waveform)!) }, write: { $0.waveform = waves[min(max(Int($1), 0), waves.count - 1)] }),
            C("polyphony", "Voices", LV2Control(range: 1...Double(PolySynthLV2.capacity), defaultValue: Double(S().polyphony), style: .integer),
              read: { Float($0.polyphony) }, write: { $0.polyphony = Int($1) }),
            number("portamento", "Portamento", R.portamento, \.portamento),
            number("attack", "Attack", R.attack, \.attack, unit: .seconds),
            number("decay", "Decay", R.decay, \.decay, unit: .seconds),
            number("sustain", "Sustain", R.sustain, \.sustain),
            number("release", "Release", R.release, \.release, unit: .seconds),
            C("lfo_mode", "LFO mode", .enumeration(modes.map(\.rawValue), defaultIndex: modes.firstIndex(of: S().lfoMode)!),
              read: { Float(modes.firstIndex(of: $0.lfoMode)!) }, write: { $0.lfoMode = modes[min(max(Int($1), 0), modes.count - 1)] }),
            number("lfo_rate", "LFO rate", R.lfoRate, \.lfoRate, unit: .hertz),
            number("lfo_depth", "LFO depth", R.lfoDepth, \.lfoDepth),
            number("velocity_sensitivity", "Velocity sensitivity", R.velocitySensitivity, \.velocitySensitivity),
            number("bend_range", "Pitch-bend range", R.pitchBendRange, \.pitchBendRange, unit: .semitones),
            number("tuning", "Tuning (A4)", R.tuning, \.tuning, unit: .hertz),
            toggle("stereo", "Stereo", \.stereo),
            number("stereo_spread", "Stereo spread", R.stereoSpread, \.stereoSpread),
            toggle("tone_on", "Tone", \.tone.enabled),
            number("tone_cutoff", "Tone cutoff", R.toneCutoff, \.tone.cutoff, unit: .hertz, style: .logarithmic),
            toggle("fuzz_on", "Fuzz", \.fuzz.enabled),
            number("fuzz_drive", "Fuzz drive", R.fuzzDrive, \.fuzz.drive, unit: .decibels),
            number("fuzz_level", "Fuzz level", R.fuzzLevel, \.fuzz.level, unit: .decibels),
            number("fuzz_mix", "Fuzz mix", R.fuzzMix, \.fuzz.mix),
            toggle("delay_on", "Delay", \.delay.enabled),
            number("delay_time", "Delay time", R.delayTime, \.delay.time, unit: .seconds),
            number("delay_feedback", "Delay feedback", R.delayFeedback, \.delay.feedback),
            number("delay_mix", "Delay mix", R.delayMix, \.delay.mix),
            number("delay_damping", "Delay damping", R.delayDamping, \.delay.damping, unit: .hertz, style: .logarithmic),
            number("delay_stereo_offset", "Delay stereo offset", R.delayStereoOffset, \.delay.stereoOffset, unit: .seconds),
            toggle("reverb_on", "Reverb", \.reverb.enabled),
            number("reverb_decay", "Reverb decay", R.reverbDecay, \.reverb.decay, unit: .seconds),
            number("reverb_size", "Reverb size", R.reverbSize, \.reverb.size),
            number("reverb_damping", "Reverb damping", R.reverbDamping, \.reverb.damping),
            number("reverb_diffusion", "Reverb diffusion", R.reverbDiffusion, \.reverb.diffusion),
            number("reverb_mix", "Reverb mix", R.reverbMix, \.reverb.mix),
            number("gain", "Gain", R.outputGain, \.outputGain, unit: .decibels),
            number("ceiling", "Limiter ceiling", R.ceiling, \.ceiling, unit: .decibels),
        ]
    }()
}
