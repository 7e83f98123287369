import Horatio

/// The set of present sources and each one's latest frame. Input is modelled as the
/// difference between successive snapshots (see `events(from:to:at:reason:)`).
public struct SourceSnapshot: Sendable, Hashable {
    /// Latest frame per present source (never `.ended`).
    public private(set) var frames: [InputSourceID: TrackingFrame] = [:]

    public init() {}

    /// Present sources in `InputSourceID.all` order.
    public var present: [InputSourceID] { InputSourceID.all.filter { frames[$0] != nil } }

    public subscript(id: InputSourceID) -> TrackingFrame? { frames[id] }

    /// This snapshot with `frame` applied: an `.ended` frame removes its source.
    public func applying(_ frame: TrackingFrame) -> SourceSnapshot {
        var next = self
        if case .ended(let id, _) = frame { next.frames[id] = nil } else { next.frames[frame.source] = frame }
        return next
    }

    /// This snapshot without the sources whose last frame is older than `cutoff` seconds.
    public func removingFrames(before cutoff: Double) -> SourceSnapshot {
        var next = self
        for (id, frame) in frames where frame.timestamp < cutoff { next.frames[id] = nil }
        return next
    }

    /// The events that take `old` to `new`, in `InputSourceID.all` order: `appeared` for a
    /// source only in `new`, `updated` for one whose frame changed, `lost` (at `time`, for
    /// `reason`) for one only in `old`.
    public static func events(from old: SourceSnapshot, to new: SourceSnapshot, at time: Double,
                              reason: SourceLossReason) -> [SourceEvent] {
        var events: [SourceEvent] = []
        for id in InputSourceID.all {
            switch (old.frames[id], new.frames[id]) {
            case (nil, let now?): events.append(.appeared(now))
            case (let before?, let now?) where before != now: events.append(.updated(now))
            case (_?, nil): events.append(.lost(id, timestamp: time, reason: reason))
            default: break
            }
        }
        return events
    }
}
