/// The four AHAP event types, with their AHAP names as raw values.
public enum HapticEventType: String, Sendable, Hashable, CaseIterable {
    /// A short tap of fixed length; `EventDuration` only pads the pattern's end.
    case hapticTransient = "HapticTransient"
    /// A vibration that lasts `EventDuration` (at most 30 s), with an attack/release envelope.
    case hapticContinuous = "HapticContinuous"
    /// A generated audio tone that lasts `EventDuration`.
    case audioContinuous = "AudioContinuous"
    /// A waveform file (`EventWaveformPath`); plays like a transient.
    case audioCustom = "AudioCustom"

    /// True for the two haptic (not audio) types.
    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
    /// True for the types whose `EventDuration` is how long they sound.
    public var isContinuous: Bool { self == .hapticContinuous || self == .audioContinuous }
}
