/// Why a live session ends.
public enum LiveStopReason: Sendable, Hashable, CustomStringConvertible {
    /// A termination signal arrived (SIGHUP 1, SIGINT 2, SIGTERM 15, by number so this stays portable).
    case signal(Int32)
    /// The requested duration passed.
    case durationElapsed
    /// A program asked (the studio's stop button, a test).
    case requested
    /// A part of the session failed (the audio server went away, the input socket closed); the text says which.
    case failed(String)

    /// The conventional name of a termination signal number ("SIGINT"); "signal N" for others.
    public static func signalName(_ number: Int32) -> String {
        switch number {
        case 1: return "SIGHUP"
        case 2: return "SIGINT"
        case 15: return "SIGTERM"
        default: return "signal \(number)"
        }
    }

    /// Whether the session ended the way its user asked (exit status 0).
    public var isClean: Bool {
        if case .failed = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .signal(let number): return "stopped by \(Self.signalName(number))"
        case .durationElapsed: return "duration elapsed"
        case .requested: return "stop requested"
        case .failed(let why): return why
        }
    }
}
