import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Process {
    /// Ends a running child as a stop should: SIGTERM, then SIGKILL when it is still running after `grace`
    /// seconds; returns once it has exited (no zombie left).
    func end(grace: TimeInterval = 2) {
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning, Date() < deadline { usleep(20_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
