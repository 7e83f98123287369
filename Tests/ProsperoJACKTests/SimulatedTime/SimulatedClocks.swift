import ProsperoJACK
import Synchronization

/// Simulated time for ``JACKInputClock``: one "now" the simulation sets, read as the audio thread's clock
/// (nanoseconds) and as the host's (seconds, `hostOffset` seconds behind it: the two clocks of a live process have
/// different origins, and an arrival must cross from one to the other by its age alone).
final class SimulatedClocks: Sendable {
    /// Now, seconds on the audio thread's clock.
    private let now = Atomic<UInt64>(0)
    let hostOffset: Double

    init(hostOffset: Double = 1_234.5) {
        self.hostOffset = hostOffset
    }

    /// Moves time to `seconds` on the audio thread's clock.
    func set(_ seconds: Double) { now.store(seconds.bitPattern, ordering: .relaxed) }
    /// Now on the audio thread's clock, seconds.
    var audioSeconds: Double { Double(bitPattern: now.load(ordering: .relaxed)) }
    /// Now on the audio thread's clock, nanoseconds (as a period start is stamped).
    func audioNanoseconds(_ seconds: Double) -> UInt64 { UInt64((seconds * 1e9).rounded()) }
    /// `seconds` on the audio thread's clock, on the host's clock.
    func host(_ seconds: Double) -> Double { seconds - hostOffset }

    var clocks: JACKInputClock.Clocks {
        JACKInputClock.Clocks(host: { [self] in host(audioSeconds) }, audio: { [self] in audioNanoseconds(audioSeconds) })
    }
}
