/// The live audio side of a host (a JACK client, or none), as the CLI and the studio see it: a
/// status snapshot they print or show, never the backend's own API. The JACK edge implements it
/// (`LiveSession`, `JACKClient`); ``OfflineAudioBackend`` stands in where there is no live audio.
public protocol LiveAudioBackend: AnyObject, Sendable {
    /// A snapshot of the backend now; any thread, never blocks on the audio thread.
    var audioStatus: AudioHostStatus { get }
}
