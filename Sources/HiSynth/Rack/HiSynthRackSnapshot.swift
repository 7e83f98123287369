/// What the rack's displays read of ``HiSynthRackEngine`` (about 30 Hz): the player's snapshot (the
/// synth's own, song position, transport, the engine clock), which song is loaded, and the settings the synth runs.
public struct HiSynthRackSnapshot: Sendable, Hashable {
    public var player: HiSynthPlayerSnapshot
    /// Index of the loaded song in ``HiSynthRackEngine/songs`` (0 when there is none).
    public var song: Int
    /// A song was just selected and starts within 0.5 s.
    public var starting: Bool
    /// The settings the synth runs (targets; continuous values may still be gliding).
    public var settings: HiSynthSettings
}
