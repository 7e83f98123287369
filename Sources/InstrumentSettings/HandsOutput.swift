/// Where the hands screen's MIDI goes.
public enum HandsOutput: String, Sendable, Hashable, Codable, CaseIterable {
    /// JACK `midi_out` only (an external synth or DAW plays it).
    case midi
    /// The built-in synth only.
    case synth
    /// Both.
    case both

    public var includesMIDI: Bool { self != .synth }
    public var includesSynth: Bool { self != .midi }
}
