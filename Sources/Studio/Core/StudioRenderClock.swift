/// When the browser-audio render thread renders its next block: a pure value, paced by a clock the
/// caller reads (seconds, monotonic), so that tests drive it with a fake clock.
///
/// Block *k* is due at `start + Σ blockFrames / (sampleRate · ratio)`: each block's duration uses the
/// ratio in force when it was rendered, so steering changes the rate, never the phase. When the thread
/// falls more than ``maximumLag`` behind (the machine stalled), it does not burst to catch up: it counts
/// a late event and restarts the schedule at `now` (the page's jitter buffer bridges the gap or reports
/// a dropout).
public struct StudioRenderClock: Sendable, Equatable {
    public enum Action: Equatable, Sendable {
        /// Render one block now.
        case render
        /// Nothing due: wait this many seconds.
        case wait(Double)
    }

    public let sampleRate: Double
    public let blockFrames: Int
    /// Behind by more than this (s), the schedule restarts instead of catching up.
    public var maximumLag: Double
    /// Render rate / nominal (from ``StudioRateSteering``), clamped to 1 ± 0.0005.
    public var ratio: Double = 1 {
        didSet { ratio = min(1 + StudioRateSteering.maximumDeviation, max(1 - StudioRateSteering.maximumDeviation, ratio.isFinite ? ratio : 1)) }
    }
    /// When the next block is due (s).
    public private(set) var due: Double
    /// Blocks rendered.
    public private(set) var blocks = 0
    /// Frames rendered.
    public private(set) var frames = 0
    /// Times the schedule restarted after falling behind.
    public private(set) var lateRestarts = 0

    /// - Parameters: `start`: the first block is due then; `maximumLag` default 50 ms.
    public init(sampleRate: Double, blockFrames: Int, start: Double, maximumLag: Double = 0.050) {
        self.sampleRate = sampleRate
        self.blockFrames = blockFrames
        self.maximumLag = maximumLag
        due = start
    }

    /// Seconds one block lasts at the current ratio.
    public var blockDuration: Double { Double(blockFrames) / (sampleRate * ratio) }

    /// What to do at `now`. After `.render`, call ``rendered(at:)``.
    public func poll(now: Double) -> Action {
        now >= due ? .render : .wait(due - now)
    }

    /// One block was rendered at `now`: the next one is due a block later (or the schedule restarts).
    public mutating func rendered(at now: Double) {
        blocks += 1
        frames += blockFrames
        if now - due > maximumLag {
            lateRestarts += 1
            due = now + blockDuration
        } else {
            due += blockDuration
        }
    }
}
