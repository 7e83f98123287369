import HiSynth

extension HiSynthStudioInstrument {
    /// The rack's continuous knobs (levels, envelope, filters, LFO depth, speed and phase, effect amounts);
    /// whole-number controls (pitch, reverb size) and switches are not learnable.
    public static var learnableControls: [MIDILearnableControl] {
        HiSynthRackControl.all.compactMap { control in
            guard case .number(let range, let whole, _) = control.kind, !whole else { return nil }
            return .init(path: "hisynth.\(control.name)", range: range)
        }
    }

    /// The settings file's `hisynth` section: the sound as its preset string (every knob, byte-exact as
    /// the original app exports it) and the keyboard's octave.
    public func savedSettings() -> StudioValue? {
        guard let text = try? preset.encoded() else { return nil }
        return .object(["preset": .string(text), "octave": .number(Double(octave))])
    }

    public func restoreSettings(_ section: StudioValue) -> [String] {
        guard let members = section.object else { return ["hisynth: must be an object"] }
        var refused: [String] = []
        if let value = members["preset"] {
            if let text = value.string, text.utf8.count <= Self.maximumPresetStringLength {
                do { _ = changeSound(to: try HiSynthPreset(string: text)) } catch {
                    refused.append("hisynth.preset: \(error.description)")
                }
            } else {
                refused.append("hisynth.preset: must be a preset string of at most \(Self.maximumPresetStringLength) bytes")
            }
        }
        if let value = members["octave"] {
            do { _ = try apply(set: "hisynth.octave", value: value) } catch { refused.append("hisynth.octave: \(error.message)") }
        }
        return refused
    }
}
