/// The streams a client can subscribe to in its `hello` (all of them when it names none).
public enum StudioSubscription: String, Sendable, CaseIterable, Hashable {
    /// `state` and `changed` messages.
    case state
    /// `status` messages at 2 Hz (audio, input sources).
    case status
    /// Binary meter frames (kind 0x01).
    case meters
    /// Binary scope frames (kind 0x02).
    case scope
    /// Binary spectrum frames (kind 0x03).
    case spectrum
    /// `frame` messages (the instrument's HUD data, up to 30 Hz).
    case frames
    /// Binary PCM frames (kind 0x10), browser audio mode.
    case audio
    /// The studio's own camera (`prospero studio --camera`): its preview (binary kind 0x22, ``StudioCameraPreview``)
    /// and its `camera` messages (`"source":"studio"`: what the bridge tracks in it). Nothing when it runs none.
    case camera
}
