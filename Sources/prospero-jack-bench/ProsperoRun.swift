import Foundation
import Glibc

/// `prospero ARGUMENTS` on the bench's server as a user starts it from a script: stdin closed, stdout and stderr
/// to a log file, the server named through `JACK_DEFAULT_SERVER` and never started by the client. Listed in
/// ``ChildProcesses`` while it runs, and sent SIGTERM by the kernel if the bench dies (`setpriv --pdeathsig`).
final class ProsperoRun {
    let process = Process()
    let logURL: URL

    /// The `prospero` executable: `--prospero PATH`, else the one built beside this bench.
    static func executable(_ given: String?) throws -> URL {
        if let given { return URL(fileURLWithPath: given) }
        let url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("prospero")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchFailure("no prospero beside the bench (\(url.path)): build it, or give --prospero PATH")
        }
        return url
    }

    init(_ executable: URL, _ arguments: [String], server: String, log: String) throws {
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-jack-bench-\(log)-\(getpid()).log")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--pdeathsig", "TERM", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server
        environment["JACK_NO_START_SERVER"] = "1"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logURL)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcesses.add(process.processIdentifier)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        ChildProcesses.remove(process.processIdentifier)
        try? FileManager.default.removeItem(at: logURL)
    }

    /// Everything it printed so far.
    var output: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Waits until it printed `text`; throws if it ended first or took longer than `seconds`.
    func waitForLine(containing text: String, seconds: Double = 30) throws {
        try Bench.wait(for: "prospero to print \(text)", seconds: seconds) { output.contains(text) || !process.isRunning }
        guard process.isRunning else { throw BenchFailure("prospero \(process.arguments?.joined(separator: " ") ?? "") ended early: \(output)") }
    }

    /// The frames of its printed "input → sound N frames" (nil when it printed none).
    var printedInputToSound: Int? {
        guard let r = output.range(of: "input → sound ") else { return nil }
        return Int(output[r.upperBound...].prefix { $0.isNumber })
    }

    /// Stops it with SIGINT as a user would, SIGKILL after 10 s; its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
        if (try? Bench.wait(for: "prospero to stop", seconds: 10, { !process.isRunning })) == nil {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        ChildProcesses.remove(process.processIdentifier)
        return process.terminationStatus
    }
}
