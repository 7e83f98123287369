/// What the bridge process reports.
public enum StudioCameraBridgeEvent: Sendable, Equatable {
    /// The process is starting (the first frame, or a restart).
    case starting
    /// One output line (without its newline).
    case line([UInt8])
    /// The process ended (`reason`: its status and last error line); the next start waits `restartIn` seconds.
    case exited(reason: String, restartIn: Double)
    /// It cannot run at all here (no camera environment): `message` says what to do.
    case unavailable(String)
}
