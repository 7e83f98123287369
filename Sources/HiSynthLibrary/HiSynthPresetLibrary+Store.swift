import HiSynth

/// The preset directory as the store the studio's HiSynth is given.
extension HiSynthPresetLibrary: HiSynthPresetStore {
    public func userPresetList() -> [HiSynthPreset] { userPresets().presets }
    public func store(_ preset: HiSynthPreset) throws { try save(preset) }
}
