/// The user's presets as an instrument sees them: a list and a save, handed in by the edge that
/// owns the files (`HiSynthPresetLibrary`: one JSON file per preset in the XDG data directory). An
/// instrument never reads the disk itself, so the portable studio core stays free of file I/O.
public protocol HiSynthPresetStore: Sendable {
    /// The user presets that read, sorted by name (files that did not read are the edge's to report).
    func userPresetList() -> [HiSynthPreset]
    /// Saves `preset` under its name, replacing a user preset of the same name; throws why it could
    /// not (its description is shown to the player).
    func store(_ preset: HiSynthPreset) throws
}
