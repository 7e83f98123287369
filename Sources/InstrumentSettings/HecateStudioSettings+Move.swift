import Hecate

extension HecateStudioSettings {
    /// Moves one learnable control (a ``MIDILearnableControl`` of Hecate's, e.g. `hecate.bpm`) to
    /// `value` (clamped to its range) and returns the engine commands that make it sound, as the
    /// studio's slider sends them: the tempo, the tremolo, or the pack's voice with the new level
    /// (the engine glides levels over 50 ms). Empty for a path that is not one of Hecate's knobs.
    public mutating func move(_ path: String, to value: Double, pack: SoundPack) -> [DroneSynthEngine.Command] {
        guard let control = Self.learnableControls.first(where: { $0.path == path }), value.isFinite else { return [] }
        let v = min(max(value, control.range.lowerBound), control.range.upperBound)
        switch path {
        case "hecate.bpm":
            bpm = v
            return [.bpm(v)]
        case "hecate.tremoloDepth":
            tremoloDepth = v
            return [tremoloCommand]
        case "hecate.bassLevel": bassLevel = v
        case "hecate.droneLevel": droneLevel = v
        case "hecate.reverb": reverb = v
        default: return []
        }
        return [.preset(preset(of: pack))]
    }
}
