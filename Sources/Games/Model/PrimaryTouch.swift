import Enobarbus
import Horatio

/// Follows the one finger a game listens to: the first touch slot down, until it ends.
public struct PrimaryTouch: Sendable, Hashable {
    /// What a frame means for the game.
    public enum Change: Sendable, Hashable {
        /// The finger went down at this point.
        case began(TouchFrame)
        /// The finger moved (the previous point is given for speeds and crossings).
        case moved(TouchFrame, previous: TouchFrame)
        /// The finger lifted at `time`, last seen at `last`.
        case ended(last: TouchFrame, time: Double)
    }

    public private(set) var current: TouchFrame?

    public init() {}

    /// Whether a finger is down.
    public var isDown: Bool { current != nil }

    /// The change a frame makes, or nil when it is not about the primary finger.
    public mutating func ingest(_ frame: TrackingFrame) -> Change? {
        switch frame {
        case .touch(let t):
            guard let c = current else { current = t; return .began(t) }
            guard c.slot == t.slot else { return nil }
            current = t
            return .moved(t, previous: c)
        case .ended(let id, let time):
            guard let c = current, id == .touch(c.slot) else { return nil }
            current = nil
            return .ended(last: c, time: time)
        default:
            return nil
        }
    }

    /// Forgets the finger (the game resets).
    public mutating func reset() { current = nil }
}
