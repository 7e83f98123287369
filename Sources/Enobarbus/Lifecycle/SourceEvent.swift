import Horatio

/// Why a source was lost.
public enum SourceLossReason: String, Sendable, Hashable, Codable {
    /// The sender ended it (finger lifted, TUIO session gone, hand left the list, `/…/end`).
    case ended
    /// No frame for longer than the lifecycle's timeout.
    case timedOut
}

/// A change in the set of present sources: what instruments turn into note-ons, note moves,
/// note-offs and fades.
public enum SourceEvent: Sendable, Hashable {
    /// A source that was absent has a frame.
    case appeared(TrackingFrame)
    /// A present source has a new frame.
    case updated(TrackingFrame)
    /// A present source is gone (`timestamp` in seconds): release its notes, fade its sound.
    case lost(InputSourceID, timestamp: Double, reason: SourceLossReason)

    public var source: InputSourceID {
        switch self {
        case .appeared(let f), .updated(let f): return f.source
        case .lost(let id, _, _): return id
        }
    }
}
