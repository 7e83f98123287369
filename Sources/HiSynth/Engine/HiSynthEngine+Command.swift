extension HiSynthEngine {
    /// Everything another thread can ask of the engine, through `EngineHost.send(_:)` (a lock-free ring),
    /// applied at the start of the next block (offline: at its exact frame). No case carries heap memory.
    public enum Command: Sendable, Hashable {
        /// Starts a note 0…127 in both layers (velocity is ignored, as in the original).
        case noteOn(UInt8)
        /// Releases a note.
        case noteOff(UInt8)
        /// New settings (made from a preset with `HiSynthSettings(preset:)`); continuous values glide,
        /// effects cross-fade, waveforms and pitch apply to the next notes.
        case apply(HiSynthSettings)
        /// Releases every held note (All Notes Off).
        case releaseAll
        /// Mutes every voice within 1 ms (All Sound Off).
        case allSoundOff
    }
}
