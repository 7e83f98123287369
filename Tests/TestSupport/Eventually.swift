import Foundation

/// Waits for an outcome a user would see (a line printed, a file written, a process ended), polling until it holds.
/// The bound is for a busy 2-core machine (a full build beside the tests holds a process back for seconds), not a
/// figure: a passing wait returns as soon as the outcome holds, and only a broken program waits it out.
public enum Eventually {
    /// The default bound, seconds.
    public static let bound = 60.0

    /// The outcome did not come within the bound.
    public struct TimedOut: Error, CustomStringConvertible {
        public var what: String
        public var seconds: Double
        public var description: String { "\(what): not within \(Int(seconds)) s" }
    }

    /// Polls `condition` every `poll` seconds, blocking this thread, until it holds; throws ``TimedOut`` naming
    /// `what` after `seconds`.
    public static func holds(_ what: @autoclosure () -> String, within seconds: Double = bound, poll: Double = 0.01,
                             _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(what: what(), seconds: seconds) }
            Thread.sleep(forTimeInterval: poll)
        }
    }

    /// The same from a task, sleeping with `Task.sleep` so that no thread of the pool is held.
    public static func holds(_ what: @autoclosure () -> String, within seconds: Double = bound, poll: Double = 0.01,
                             _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(what: what(), seconds: seconds) }
            try await Task.sleep(for: .seconds(poll))
        }
    }
}
