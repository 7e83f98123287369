/// The WebSocket sizes the studio accepts (docs/studio-protocol.md, "Limits"): a message (a text frame,
/// or a message put together from continuation frames) of at most ``messageBytes``; a single frame of at
/// most twice that, which the frame reader refuses (closing the socket) before reading its payload.
/// The session's JSON parser has its own, smaller limit (``StudioClientMessage``) and answers with an error.
public enum StudioWebSocketLimits {
    /// Largest message read at all, bytes (64 KiB).
    public static let messageBytes = 64 * 1024
    /// Largest frame the frame reader accepts, bytes (128 KiB).
    public static let frameBytes = 2 * messageBytes
}
