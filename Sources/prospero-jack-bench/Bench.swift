import Foundation
import Glibc

/// What every measurement shares: bounded waits, and frames told as time.
enum Bench {
    /// The sample rate the targets are written for (frames; 48 frames are 1 ms).
    static let sampleRate = 48_000

    /// Polls `condition` every millisecond for at most `seconds`; every wait of the bench is bounded.
    static func wait(for what: String, seconds: Double, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else { throw BenchFailure("timed out after \(seconds) s waiting for \(what)") }
            usleep(1_000)
        }
    }

    /// `frames` at 48 kHz as milliseconds, two decimals ("2.81 ms").
    static func ms(_ frames: Int) -> String { String(format: "%.2f ms", Double(frames) * 1000 / Double(sampleRate)) }

    /// `frames` with its time: "135 (2.81 ms)".
    static func frames(_ frames: Int) -> String { "\(frames) (\(ms(frames)))" }
}
