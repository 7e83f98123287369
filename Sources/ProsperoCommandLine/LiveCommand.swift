import ArgumentParser
import Foundation
import LiveHost
import LiveHostPOSIX
import Synchronization

/// What every live command does first and last: one ``LiveStop`` fed by SIGINT/SIGTERM/SIGHUP
/// (whatever the shell did to them), line-buffered output that survives a closed pipe, the input
/// host on a thread of its own, and its summary.
public enum LiveCommand {
    /// SIGPIPE ignored, termination signals → the returned stop.
    public static func begin(duration: Double? = nil) -> LiveStop {
        let stop = LiveStop()
        SignalStop.install(stop)
        stop.stopAfter(duration.map { .milliseconds(Int(($0 * 1000).rounded())) })
        return stop
    }

    /// Runs `host` on its own thread; `finished` waits (bounded) for its final status.
    public final class HostThread: @unchecked Sendable {
        private let result = Mutex<Result<LiveHostStatus, any Error>?>(nil)
        private let done = LiveStop()

        public init(_ host: LiveHost, onStatus: @escaping @Sendable (LiveHostStatus) -> Void) {
            let thread = Thread { [self] in
                let outcome = Result { try host.run(onStatus: onStatus) }
                result.withLock { $0 = outcome }
                done.request(.requested)
            }
            thread.name = "live input"
            thread.start()
        }

        /// Waits up to `timeout` for the host to finish (its instrument's final messages queued).
        @discardableResult
        public func waitUntilFinished(timeout: Duration = .seconds(1)) -> Result<LiveHostStatus, any Error>? {
            done.wait(timeout: timeout)
            return result.withLock { $0 }
        }
    }

    /// "stopped by SIGINT: 120 packets, 0 malformed, 0 refused, 0 dropped, 60 frames".
    public static func summary(_ reason: LiveStopReason?, _ status: LiveHostStatus?) -> String {
        var text = "\(reason?.description ?? "stopped")"
        if let s = status {
            text += ": \(s.packets) packets, \(s.malformed) malformed, \(s.refused) refused, \(s.dropped) dropped, \(s.frames) frames"
        }
        return text
    }
}

extension Result {
    public var success: Success? { if case .success(let s) = self { return s } else { return nil } }
}
