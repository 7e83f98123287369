/// How the hands screen gives MIDI channels to hands and touches.
public enum HandsChannelMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every hand and touch on the one chosen channel.
    case single
    /// Slot i (hand i and touch i) on channel base + i: four channels from the chosen one.
    case perHand
    /// MPE lower zone: manager channel 1, each source on its own member channel 2…16.
    case mpe
}
