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

    /// Whether the session ended the way the user asked it to (exit status 0).
    public var isClean: Bool {
        if case .serverShutDown = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .interrupted(let signal): return signal == 15 ? "stopped by SIGTERM" : "stopped by SIGINT"
        case .durationElapsed: return "duration elapsed"
        case .stopRequested: return "stop requested"
        case .serverShutDown(let reason): return "the JACK server shut down (\(reason))"
        }
    }
}
