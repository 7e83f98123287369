extension HecateStudioSettings {
    /// Hecate's knobs: tempo, tremolo depth, bass, drone and reverb levels.
    public static let learnableControls: [MIDILearnableControl] = [
        .init(path: "hecate.bpm", range: bpmRange),
        .init(path: "hecate.tremoloDepth", range: unitRange),
        .init(path: "hecate.bassLevel", range: unitRange),
        .init(path: "hecate.droneLevel", range: unitRange),
        .init(path: "hecate.reverb", range: unitRange),
    ]
}
