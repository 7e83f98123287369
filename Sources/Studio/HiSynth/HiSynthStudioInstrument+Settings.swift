import HiSynth
import InstrumentSettings

extension HiSynthStudioInstrument {
    /// The rack's continuous knobs (``HiSynthRackControl/learnableControls``).
    public static var learnableControls: [MIDILearnableControl] { HiSynthRackControl.learnableControls }

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
