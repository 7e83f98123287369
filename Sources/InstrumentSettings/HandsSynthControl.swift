import Ariel

/// A control of the hands screen's synth panel: the `PolySynthSettings` field it edits, its range,
/// and how the running synth hears of it (a smoothed parameter, an effect switch, the waveform or LFO mode).
public struct HandsSynthControl: Sendable {
    public enum Kind: Sendable {
        /// A continuous setting in `range`, sent as `PolySynth.Command.set(parameter, value)` (smoothed by the synth).
        case continuous(WritableKeyPath<PolySynthSettings, Double> & Sendable, ClosedRange<Double>, PolySynth.Parameter)
        /// An effect's on/off switch (the synth cross-fades the bypass).
        case effect(WritableKeyPath<PolySynthSettings, Bool> & Sendable, PolySynth.Effect)
        case waveform
        case lfoMode
    }

    /// The path below `hands.synth.`, e.g. `"delayTime"`.
    public var name: String
    public var kind: Kind

    /// Every control the panel shows, in panel order.
    public static let all: [HandsSynthControl] = [
        .init(name: "waveform", kind: .waveform),
        .init(name: "attack", kind: .continuous(\.attack, 0...5, .attack)),
        .init(name: "release", kind: .continuous(\.release, 0...10, .release)),
        .init(name: "portamento", kind: .continuous(\.portamento, 0...1, .portamento)),
        .init(name: "lfo", kind: .lfoMode),
        .init(name: "lfoRate", kind: .continuous(\.lfoRate, 0.05...20, .lfoRate)),
        .init(name: "lfoDepth", kind: .continuous(\.lfoDepth, 0...1, .lfoDepth)),
        .init(name: "tone", kind: .effect(\.tone.enabled, .tone)),
        .init(name: "toneCutoff", kind: .continuous(\.tone.cutoff, 20...20_000, .toneCutoff)),
        .init(name: "fuzz", kind: .effect(\.fuzz.enabled, .fuzz)),
        .init(name: "fuzzDrive", kind: .continuous(\.fuzz.drive, 0...48, .fuzzDrive)),
        .init(name: "delay", kind: .effect(\.delay.enabled, .delay)),
        .init(name: "delayTime", kind: .continuous(\.delay.time, 0.001...2, .delayTime)),
        .init(name: "delayFeedback", kind: .continuous(\.delay.feedback, 0...0.95, .delayFeedback)),
        .init(name: "delayMix", kind: .continuous(\.delay.mix, 0...1, .delayMix)),
        .init(name: "reverb", kind: .effect(\.reverb.enabled, .reverb)),
        .init(name: "reverbDecay", kind: .continuous(\.reverb.decay, 0.1...30, .reverbDecay)),
        .init(name: "reverbMix", kind: .continuous(\.reverb.mix, 0...1, .reverbMix)),
        .init(name: "gain", kind: .continuous(\.outputGain, -60...12, .outputGain)),
    ]

    /// The control named `name`, nil for none.
    public static func named(_ name: String) -> HandsSynthControl? { all.first { $0.name == name } }

    /// The control's value in `settings`, as the page shows it.
    public func value(in settings: PolySynthSettings) -> HandsSettingValue {
        switch kind {
        case .continuous(let path, _, _): return .number(settings[keyPath: path])
        case .effect(let path, _): return .flag(settings[keyPath: path])
        case .waveform: return .text(settings.waveform.rawValue)
        case .lfoMode: return .text(settings.lfoMode.rawValue)
        }
    }

    /// Sets the control in `settings` and returns the command that tells the running synth.
    public func apply(_ value: HandsSettingValue, to settings: inout PolySynthSettings)
        throws(HandsStudioSettingsError) -> PolySynth.Command {
        let path = "synth.\(name)"
        switch (kind, value) {
        case (.continuous(let field, let range, let parameter), .number(let v)):
            guard v.isFinite, range.contains(v) else {
                throw HandsStudioSettingsError(path: path, "must be \(range.lowerBound)…\(range.upperBound), not \(v)")
            }
            settings[keyPath: field] = v
            return .set(parameter, v)
        case (.effect(let field, let effect), .flag(let on)):
            settings[keyPath: field] = on
            return .setEffectEnabled(effect, on)
        case (.waveform, .text(let text)):
            guard let waveform = PolySynthSettings.Waveform(rawValue: text) else {
                throw HandsStudioSettingsError(path: path, "must be one of \(PolySynthSettings.Waveform.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
            }
            settings.waveform = waveform
            return .setWaveform(waveform)
        case (.lfoMode, .text(let text)):
            guard let mode = PolySynthSettings.LFOMode(rawValue: text) else {
                throw HandsStudioSettingsError(path: path, "must be vibrato or tremolo, not '\(text)'")
            }
            settings.lfoMode = mode
            return .setLFOMode(mode)
        case (.continuous, _): throw HandsStudioSettingsError(path: path, "must be a number")
        case (.effect, _): throw HandsStudioSettingsError(path: path, "must be true or false")
        case (.waveform, _), (.lfoMode, _): throw HandsStudioSettingsError(path: path, "must be a name")
        }
    }
}
