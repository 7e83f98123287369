import HiSynth

/// One control of the rack (spec §1), named as its `set` path after `hisynth.`: `osc1.level`,
/// `lp.cutoff`, `lfo2.filterLow`, `delay.time`, … Reads and writes the rack's preset (the values in the
/// original app's units, stored as the preset string stores them: binary16), checking type and range.
///
/// Ranges are the UI's (spec §1): level 0…1, pitch −12…12 semitones (whole), attack 0…2 s, decay
/// 0.05…2 s, sustain 0…1, release 0.05…10 s, cutoffs 10…22 050 Hz, resonances −20…34 dB, LFO depth 0…1,
/// speed 0.25…20 Hz, phase 0…1 cycles, reverb size 1…3 (whole), mix 0…1, delay feedback and mixes
/// 0…100 %, delay time 0…2 s, drive gain −40…20 dB, decimation 0…30 %.
/// The resonances end at +34 dB, where the engine's filter clamps Q (50): the preset format keeps the
/// original's −20…40 dB, and a preset's value above +34 dB loads unchanged and sounds as +34 dB.
public struct HiSynthRackControl: Sendable {
    public enum Kind: Sendable {
        /// A number in `range`; `whole` numbers only when set.
        case number(ClosedRange<Double>, whole: Bool, unit: String)
        /// On/off.
        case flag
        /// One of `options` (names); `offered` are those the original's UI shows, in its order.
        case choice(options: [String], offered: [String])
    }

    public let name: String
    public let kind: Kind
    let read: @Sendable (HiSynthPreset) -> StudioValue
    let write: @Sendable (inout HiSynthPreset, StudioValue) -> Void

    /// The value as the state carries it.
    public func value(in preset: HiSynthPreset) -> StudioValue { read(preset) }

    /// Checks `value` and writes it into `preset`; a refused value leaves it untouched.
    public func set(_ value: StudioValue, in preset: inout HiSynthPreset, path: String) throws(StudioError) {
        switch kind {
        case .number(let range, let whole, _):
            let n = try value.number(in: range, at: path)
            if whole && n != n.rounded() { throw .badValue(path, expected: "a whole number") }
            write(&preset, .number(n))
        case .flag:
            write(&preset, .bool(try value.boolean(at: path)))
        case .choice(let options, _):
            write(&preset, .string(try value.choice(options, at: path)))
        }
    }

    /// The control's description for pages: name, kind, range or options.
    public var json: StudioValue {
        switch kind {
        case .number(let range, let whole, let unit):
            return .object(["name": .string(name), "kind": .string("number"), "min": .number(range.lowerBound),
                            "max": .number(range.upperBound), "whole": .bool(whole), "unit": .string(unit)])
        case .flag:
            return .object(["name": .string(name), "kind": .string("flag")])
        case .choice(let options, let offered):
            return .object(["name": .string(name), "kind": .string("choice"), "options": .array(options.map { .string($0) }),
                            "offered": .array(offered.map { .string($0) })])
        }
    }

    // MARK: The controls

    /// Every control, panel by panel (oscillators, envelope, filters, LFOs, effects).
    public static let all: [HiSynthRackControl] = oscillators + envelope + filters + lfos + effects

    /// By name.
    public static let byName: [String: HiSynthRackControl] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    static let waveformNames = HiSynthWaveform.allCases.map(\.name)
    /// The oscillator panel's slider, top to bottom.
    static let oscillatorOffered = ["sine", "saw", "square", "triangle", "pulse"]
    /// The LFO panel's choices (no triangle in the original).
    static let lfoOffered = ["sine", "rsaw", "saw", "square", "pulse"]

    static func number(_ name: String, _ range: ClosedRange<Double>, whole: Bool = false, unit: String = "",
                       _ key: WritableKeyPath<HiSynthPreset, Float16> & Sendable) -> HiSynthRackControl {
        HiSynthRackControl(name: name, kind: .number(range, whole: whole, unit: unit),
                           read: { .number(Double($0[keyPath: key])) },
                           write: { p, v in p[keyPath: key] = Float16(Float(v.number ?? 0)) })
    }

    static func flag(_ name: String, _ key: WritableKeyPath<HiSynthPreset, Bool> & Sendable) -> HiSynthRackControl {
        HiSynthRackControl(name: name, kind: .flag, read: { .bool($0[keyPath: key]) },
                           write: { p, v in p[keyPath: key] = v.bool ?? false })
    }

    static func waveform(_ name: String, offered: [String], _ key: WritableKeyPath<HiSynthPreset, HiSynthWaveform> & Sendable) -> HiSynthRackControl {
        HiSynthRackControl(name: name, kind: .choice(options: waveformNames, offered: offered),
                           read: { .string($0[keyPath: key].name) },
                           write: { p, v in if let w = HiSynthWaveform(name: v.string ?? "") { p[keyPath: key] = w } })
    }

    static let oscillators: [HiSynthRackControl] = (0..<2).flatMap { i in
        [
            waveform("osc\(i + 1).waveform", offered: oscillatorOffered, \HiSynthPreset.oscillators[i].waveform),
            number("osc\(i + 1).level", 0...1, \HiSynthPreset.oscillators[i].level),
            number("osc\(i + 1).pitch", -12...12, whole: true, unit: "st", \HiSynthPreset.oscillators[i].pitch),
        ]
    }

    static let envelope: [HiSynthRackControl] = [
        number("env.attack", 0...2, unit: "s", \HiSynthPreset.envelope.attack),
        number("env.decay", 0.05...2, unit: "s", \HiSynthPreset.envelope.decay),
        number("env.sustain", 0...1, \HiSynthPreset.envelope.sustain),
        number("env.release", 0.05...10, unit: "s", \HiSynthPreset.envelope.release),
    ]

    static let filters: [HiSynthRackControl] = [
        number("lp.cutoff", 10...22_050, unit: "Hz", \HiSynthPreset.filters.lowPass.cutoff),
        number("lp.resonance", -20...34, unit: "dB", \HiSynthPreset.filters.lowPass.resonance),
        number("hp.cutoff", 10...22_050, unit: "Hz", \HiSynthPreset.filters.highPass.cutoff),
        number("hp.resonance", -20...34, unit: "dB", \HiSynthPreset.filters.highPass.resonance),
    ]

    static let lfos: [HiSynthRackControl] = (0..<3).flatMap { i in
        let p = "lfo\(i + 1)."
        return [
            waveform(p + "waveform", offered: lfoOffered, \HiSynthPreset.lfos[i].waveform),
            number(p + "depth", 0...1, \HiSynthPreset.lfos[i].depth),
            number(p + "speed", 0.25...20, unit: "Hz", \HiSynthPreset.lfos[i].speed),
            number(p + "phase", 0...1, unit: "cycles", \HiSynthPreset.lfos[i].phase),
            flag(p + "pitch", \HiSynthPreset.lfos[i].pitch),
            flag(p + "amplitude", \HiSynthPreset.lfos[i].amplitude),
            flag(p + "filterLow", \HiSynthPreset.lfos[i].filterLow),
            flag(p + "filterHigh", \HiSynthPreset.lfos[i].filterHigh),
        ]
    }

    static let effects: [HiSynthRackControl] = [
        flag("reverb.on", \HiSynthPreset.effects.reverb.on),
        HiSynthRackControl(name: "reverb.type", kind: .choice(options: HiSynthReverbType.allCases.map(\.name), offered: ["room", "hall"]),
                           read: { .string($0.effects.reverb.type.name) },
                           write: { p, v in if let t = HiSynthReverbType(name: v.string ?? "") { p.effects.reverb.type = t } }),
        number("reverb.size", 1...3, whole: true, \HiSynthPreset.effects.reverb.size),
        number("reverb.mix", 0...1, \HiSynthPreset.effects.reverb.mix),
        flag("delay.on", \HiSynthPreset.effects.delay.on),
        number("delay.feedback", 0...100, unit: "%", \HiSynthPreset.effects.delay.feedback),
        number("delay.time", 0...2, unit: "s", \HiSynthPreset.effects.delay.time),
        number("delay.mix", 0...100, unit: "%", \HiSynthPreset.effects.delay.mix),
        flag("drive.on", \HiSynthPreset.effects.drive.on),
        number("drive.gain", -40...20, unit: "dB", \HiSynthPreset.effects.drive.gain),
        number("drive.mix", 0...100, unit: "%", \HiSynthPreset.effects.drive.mix),
        flag("decimator.on", \HiSynthPreset.effects.decimator.on),
        number("decimator.rate", 0...30, unit: "%", \HiSynthPreset.effects.decimator.rate),
        number("decimator.mix", 0...100, unit: "%", \HiSynthPreset.effects.decimator.mix),
    ]
}
