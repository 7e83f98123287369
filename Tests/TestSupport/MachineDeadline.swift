import Foundation

/// A deadline of `seconds` of the time the machine gave: it moves on by every second in which some task waited
/// for a CPU (Linux pressure stall information, `/proc/pressure/cpu` "some"), up to `limit` times `seconds`.
/// On a quiet machine it is the plain deadline; on a busy one (a build beside the tests) a guard against a
/// hung peer does not fire because the peer waited for a CPU. The browser scripts' `MachineDeadline`
/// (Browser/core_browser.py) follows the same rule.
public struct MachineDeadline: Sendable {
    /// The time the work is given, in seconds of wall time on a quiet machine.
    public var seconds: Double
    /// The furthest the deadline moves: `limit × seconds` after the start.
    public var limit: Double
    private let start: Date
    private let stalledAtStart: Double?

    public init(seconds: Double, limit: Double = 4) {
        self.seconds = seconds
        self.limit = max(1, limit)
        start = Date()
        stalledAtStart = Self.cpuStallSeconds()
    }

    /// Wall-clock seconds since the start.
    public var elapsed: Double { Date().timeIntervalSince(start) }

    public var expired: Bool {
        let elapsed = Date().timeIntervalSince(start)
        if elapsed < seconds { return false }
        guard let before = stalledAtStart, let now = Self.cpuStallSeconds() else { return true }
        return elapsed >= min(limit * seconds, seconds + (now - before))
    }

    /// Seconds so far in which some task waited for a CPU; nil where the kernel has no pressure stall
    /// information.
    public static func cpuStallSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8),
              let some = text.split(separator: "\n").first(where: { $0.hasPrefix("some ") }),
              let total = some.split(separator: " ").first(where: { $0.hasPrefix("total=") }),
              let micro = Double(total.dropFirst("total=".count)) else { return nil }
        return micro / 1e6
    }
}
