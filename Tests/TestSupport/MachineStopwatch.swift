import Foundation

/// Wall time since its start, and how much of it the machine gave: the seconds in which some task waited for a CPU
/// (``MachineDeadline/cpuStallSeconds()``) taken off, at least `1 / limit` of the wall time counted. A check of how
/// fast something ran judges ``machineSeconds``, so that a busy machine's delay does not read as a slow program
/// (``MachineDeadline`` is the same rule for waits).
public struct MachineStopwatch: Sendable {
    /// The most the wall time is divided by: `machineSeconds ≥ elapsed / limit`.
    public var limit: Double
    private let start: Date
    private let stalledAtStart: Double?

    public init(limit: Double = 4) {
        self.limit = max(1, limit)
        start = Date()
        stalledAtStart = MachineDeadline.cpuStallSeconds()
    }

    /// Wall-clock seconds since the start.
    public var elapsed: Double { Date().timeIntervalSince(start) }

    /// Seconds since the start in which some task waited for a CPU; 0 without pressure stall information.
    public var stalled: Double {
        guard let before = stalledAtStart, let now = MachineDeadline.cpuStallSeconds() else { return 0 }
        return now - before
    }

    /// A reading: the wall seconds, the stalled ones, and the machine's.
    public func read() -> (elapsed: Double, stalled: Double, machine: Double) {
        let elapsed = elapsed, stalled = stalled
        return (elapsed, stalled, max(elapsed - stalled, elapsed / limit))
    }
}
