import HiSynth
import InstrumentSettings

extension HiSynthStudioInstrument {
    /// The settings the synth runs, in engine units (what the preset became after the documented clamps
    /// and conversions of `HiSynthSettings(preset:)`): `osc` [{waveform, level, pitch}] ×2, `envelope`
    /// {attack, decay, sustain, release} (s, linear), `lowPass`/`highPass` {cutoff (Hz), resonance (dB)},
    /// `lfos` [{waveform, depth, speed, phase, pitch, amplitude, filterLow, filterHigh}] ×3, `effects`
    /// {decimatorOn, decimatorRate (%), decimatorMix (0…1), driveOn, driveGain (dB), driveMix, delayOn,
    /// delayFeedback (0…1), delayTime (s), delayMix, reverbOn, reverb (variant), reverbMix}.
    public static func settingsJSON(_ s: HiSynthSettings) -> StudioValue {
        func n(_ x: Float) -> StudioValue { .number(Double(x)) }
        let fx = s.effects
        return .object([
            "osc": .array((0..<2).map { i in
                let l = s[layer: i]
                return .object(["waveform": .string(l.waveform.name), "level": n(l.level), "pitch": n(l.pitch)])
            }),
            "envelope": .object(["attack": .number(s.envelope.attack), "decay": .number(s.envelope.decay),
                                 "sustain": .number(s.envelope.sustain), "release": .number(s.envelope.release)]),
            "lowPass": .object(["cutoff": n(s.lowPass.cutoff), "resonance": n(s.lowPass.resonance)]),
            "highPass": .object(["cutoff": n(s.highPass.cutoff), "resonance": n(s.highPass.resonance)]),
            "lfos": .array((0..<3).map { i in
                let l = s[lfo: i]
                return .object(["waveform": .string(l.waveform.name), "depth": n(l.depth), "speed": .number(l.speed),
                                "phase": .number(l.phase), "pitch": .bool(l.pitch), "amplitude": .bool(l.amplitude),
                                "filterLow": .bool(l.filterLow), "filterHigh": .bool(l.filterHigh)])
            }),
            "effects": .object([
                "decimatorOn": .bool(fx.decimatorOn), "decimatorRate": n(fx.decimatorRate), "decimatorMix": n(fx.decimatorMix),
                "driveOn": .bool(fx.driveOn), "driveGain": n(fx.driveGain), "driveMix": n(fx.driveMix),
                "delayOn": .bool(fx.delayOn), "delayFeedback": n(fx.delayFeedback), "delayTime": n(fx.delayTime), "delayMix": n(fx.delayMix),
                "reverbOn": .bool(fx.reverbOn), "reverb": .string(Self.variantName(fx.reverbVariant)), "reverbMix": n(fx.reverbMix),
            ]),
        ])
    }

    static func variantName(_ v: HiSynthReverbVariant) -> String {
        switch v {
        case .plate: "plate"
        case .smallRoom: "smallRoom"
        case .mediumRoom: "mediumRoom"
        case .largeRoom: "largeRoom"
        case .mediumHall: "mediumHall"
        case .largeHall: "largeHall"
        case .largeHall2: "largeHall2"
        }
    }
}
