import Horatio

/// One normalised input frame from any sender, or the sender's explicit end of a source
/// (a finger lifted, a TUIO session gone, a hand no longer in the list).
public enum TrackingFrame: Sendable, Hashable {
    case face(FaceFrame)
    case hand(HandFrame)
    case touch(TouchFrame)
    /// The sender says this source ended at `timestamp` (seconds).
    case ended(InputSourceID, timestamp: Double)

    /// The source this frame belongs to.
    public var source: InputSourceID {
        switch self {
        case .face: return .face
        case .hand(let h): return .hand(h.slot)
        case .touch(let t): return .touch(t.slot)
        case .ended(let id, _): return id
        }
    }

    /// Seconds on the receiver's clock.
    public var timestamp: Double {
        get {
            switch self {
            case .face(let f): return f.timestamp
            case .hand(let h): return h.timestamp
            case .touch(let t): return t.timestamp
            case .ended(_, let t): return t
            }
        }
        set {
            switch self {
            case .face(var f): f.timestamp = newValue; self = .face(f)
            case .hand(var h): h.timestamp = newValue; self = .hand(h)
            case .touch(var t): t.timestamp = newValue; self = .touch(t)
            case .ended(let id, _): self = .ended(id, timestamp: newValue)
            }
        }
    }
}
