import Foundation

/// The one stop mechanism of every live command: whoever wants the session to end (a signal
/// watcher, a duration, the studio, a failing part) calls ``request(_:)``; everything that runs
/// (the input loop, the JACK session, status printers) waits on it or reads it and ends.
///
/// The first request wins (its reason is reported); later ones are ignored. Waiting wakes at once
/// on a request, so stopping never depends on a sleep running out. Safe from any thread, but not
/// from a signal handler (the POSIX edge forwards signals from a thread of its own).
public final class LiveStop: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: LiveStopReason?
    private var observers: [@Sendable () -> Void] = []

    public init() {}

    /// Asks everything waiting on this stop to end. Returns false when a stop was already requested.
    @discardableResult
    public func request(_ reason: LiveStopReason) -> Bool {
        condition.lock()
        guard stored == nil else {
            condition.unlock()
            return false
        }
        stored = reason
        let wake = observers
        condition.broadcast()
        condition.unlock()
        for observer in wake { observer() }
        return true
    }

    /// The first reason requested, nil while running.
    public var reason: LiveStopReason? {
        condition.lock()
        defer { condition.unlock() }
        return stored
    }

    public var isRequested: Bool { reason != nil }

    /// Calls `wake` (on the requesting thread) when a stop is requested, or at once if one already was;
    /// for loops that wait on something else (an input queue) and must wake for the stop too.
    public func onRequest(_ wake: @escaping @Sendable () -> Void) {
        condition.lock()
        if stored != nil {
            condition.unlock()
            wake()
            return
        }
        observers.append(wake)
        condition.unlock()
    }

    /// Waits until a stop is requested or `timeout` passes; returns the reason, nil on timeout.
    @discardableResult
    public func wait(timeout: Duration) -> LiveStopReason? {
        let (seconds, attoseconds) = timeout.components
        let limit = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18)
        condition.lock()
        defer { condition.unlock() }
        while stored == nil {
            if !condition.wait(until: limit) { break }
        }
        return stored
    }

    /// Requests ``LiveStopReason/durationElapsed`` after `duration` from a background thread (nothing if nil).
    public func stopAfter(_ duration: Duration?) {
        guard let duration else { return }
        let thread = Thread { [self] in
            if wait(timeout: duration) == nil { request(.durationElapsed) }
        }
        thread.name = "LiveStop duration"
        thread.start()
    }
}
