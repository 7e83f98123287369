/// How `PolySynth` renders its voices. Both give the same sound (within 2e-5, tested through note-ons,
/// steals, glides and releases); the lanes are several times cheaper.
public enum PolySynthVoiceRendering: String, Sendable, Hashable, CaseIterable {
    /// Eight voices at a time in SIMD lanes (`PolySynthVoiceLanes`): the default.
    case lanes
    /// Voice by voice (`PolySynthVoice.render`): the reference the lanes are tested against.
    case scalar
}
