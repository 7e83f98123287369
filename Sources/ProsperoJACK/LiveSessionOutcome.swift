import LiveHost

/// Why a ``LiveSession`` ended.
public enum LiveSessionOutcome: Sendable, Hashable, CustomStringConvertible {
    /// SIGINT or SIGTERM arrived.
    case interrupted(signal: Int32)
    /// The requested duration passed.
    case durationElapsed
    /// ``LiveSession/requestStop()`` was called.
    case stopRequested
    /// The JACK server shut down or died (and reconnecting was not asked for).
    case serverShutDown(reason: String)
    /// Another part of the live host failed and stopped the session.
    case failed(reason: String)

    /// Whether the session ended the way the user asked it to (exit status 0).
    public var isClean: Bool {
        switch self {
        case .serverShutDown, .failed: return false
        default: return true
        }
    }

    public var description: String {
        switch self {
        case .interrupted(let signal): return "stopped by \(LiveStopReason.signalName(signal))"
        case .durationElapsed: return "duration elapsed"
        case .stopRequested: return "stop requested"
        case .serverShutDown(let reason): return "the JACK server shut down (\(reason))"
        case .failed(let reason): return reason
        }
    }
}
