import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the bridge's Python as a child sharing this process's stdin, stdout and stderr, forwards
/// SIGINT, SIGTERM and SIGHUP to it, and waits for it. On every way out of `run` the child is gone:
/// it ended, or it is sent SIGTERM (then SIGKILL after 2 s) and reaped.
enum CameraBridgeChild {
    /// The child's exit status (128 + signal number when a signal ended it).
    static func run(python: String, arguments: [String]) throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: python)
        child.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // MediaPipe's C++ logging (glog/absl) otherwise fills the terminal on every start.
        environment["GLOG_minloglevel"] = environment["GLOG_minloglevel"] ?? "2"
        environment["TF_CPP_MIN_LOG_LEVEL"] = environment["TF_CPP_MIN_LOG_LEVEL"] ?? "2"
        child.environment = environment

        let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP]
        // A parent may have started this process with these signals blocked (the child would inherit
        // that and never hear them); unblock them first.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in forwarded { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let queue = DispatchQueue(label: "prospero.camera.signals")
        var sources: [DispatchSourceSignal] = []
        for number in forwarded {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { if child.isRunning { kill(child.processIdentifier, number) } }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            for number in forwarded { signal(number, SIG_DFL) }
        }

        try child.run()
        defer {
            if child.isRunning {
                kill(child.processIdentifier, SIGTERM)
                let deadline = Date().addingTimeInterval(2)
                while child.isRunning, Date() < deadline { usleep(20_000) }
                if child.isRunning { kill(child.processIdentifier, SIGKILL) }
                child.waitUntilExit()
            }
        }
        child.waitUntilExit()
        switch child.terminationReason {
        case .exit: return child.terminationStatus
        case .uncaughtSignal: return 128 + child.terminationStatus
        @unknown default: return 1
        }
    }
}
