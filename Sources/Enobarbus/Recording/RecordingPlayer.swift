/// Replays a recording's frames in real time (each frame at its recorded offset from the
/// start) or as fast as possible (offline renders and tests).
public struct RecordingPlayer: Sendable {
    public enum Pace: Sendable, Hashable {
        /// Frames are delivered at their recorded times relative to the start of `play`.
        case realTime
        /// Frames are delivered back to back.
        case asFastAsPossible
    }

    public var recording: Recording
    public var pace: Pace
    /// Longest wait between two frames in real time, seconds (10 by default, as `RecordingLimits`): a
    /// recording made in code may hold any gap, and a replay never sleeps for hours.
    public var maximumGap: Double

    public init(_ recording: Recording, pace: Pace, maximumGap: Double = 10) {
        self.recording = recording
        self.pace = pace
        self.maximumGap = maximumGap
    }

    /// Delivers every frame to `deliver` in order, each with its recorded timestamp. In real
    /// time, the first frame is due at `start` (default: now) and each later one at its recorded
    /// offset from the first. Returns early (without error) when the task is cancelled.
    public func play(startingAt start: ContinuousClock.Instant = .now, _ deliver: (TrackingFrame) async -> Void) async {
        await play(clock: ContinuousClock(), startingAt: start, deliver)
    }

    /// The same on any clock (a test clock makes real-time pacing checkable without waiting).
    public func play<C: Clock>(clock: C, startingAt start: C.Instant, _ deliver: (TrackingFrame) async -> Void) async
    where C.Duration == Duration {
        var previous = recording.frames.first?.timestamp ?? 0
        var offset = 0.0
        for frame in recording.frames {
            if Task.isCancelled { return }
            if pace == .realTime {
                // Gaps longer than `maximumGap` are waited as `maximumGap` (one step, not a loop).
                offset += min(max(frame.timestamp - previous, 0), maximumGap)
                previous = frame.timestamp
                let due = start.advanced(by: .microseconds(Int64((offset * 1_000_000).rounded())))
                do { try await clock.sleep(until: due, tolerance: .microseconds(200)) } catch { return }
            }
            await deliver(frame)
        }
    }

    /// The frames as an asynchronous sequence, paced as `pace` says.
    public func frames() -> AsyncStream<TrackingFrame> {
        AsyncStream { continuation in
            let task = Task {
                await play { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
