/// Tracks which sources are present: a source appears with its first frame, updates with each
/// later one, and is lost when its sender ends it or after `timeout` seconds without a frame.
///
///     var lifecycle = SourceLifecycle(timeout: 0.25)
///     for event in lifecycle.ingest(frames, at: now) { … }   // also call advance(to:) on a timer
///
/// Time is whatever clock the frames' timestamps use (the receiver's monotonic seconds, or a
/// recording's time), so replayed recordings produce the same events as the live input did.
public struct SourceLifecycle: Sendable, Hashable {
    /// Seconds without a frame after which a source is lost. Default 0.25.
    public var timeout: Double
    public private(set) var snapshot = SourceSnapshot()

    public init(timeout: Double = 0.25) {
        self.timeout = timeout
    }

    /// Applies one frame and returns the events it causes (none when nothing changed).
    public mutating func ingest(_ frame: TrackingFrame) -> [SourceEvent] {
        let next = snapshot.applying(frame)
        let events = SourceSnapshot.events(from: snapshot, to: next, at: frame.timestamp, reason: .ended)
        snapshot = next
        return events
    }

    /// Loses every source whose last frame is more than `timeout` before `time`.
    public mutating func advance(to time: Double) -> [SourceEvent] {
        let next = snapshot.removingFrames(before: time - timeout)
        let events = SourceSnapshot.events(from: snapshot, to: next, at: time, reason: .timedOut)
        snapshot = next
        return events
    }

    /// Times out stale sources at `time`, then applies `frames` in order.
    public mutating func ingest(_ frames: [TrackingFrame], at time: Double) -> [SourceEvent] {
        var events = advance(to: time)
        for frame in frames { events += ingest(frame) }
        return events
    }

    /// Loses every present source at `time` (e.g. when input stops).
    public mutating func loseAll(at time: Double, reason: SourceLossReason = .ended) -> [SourceEvent] {
        let events = SourceSnapshot.events(from: snapshot, to: SourceSnapshot(), at: time, reason: reason)
        snapshot = SourceSnapshot()
        return events
    }
}
