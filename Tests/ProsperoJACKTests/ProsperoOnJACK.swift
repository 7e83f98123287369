import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `prospero ARGUMENTS` started on a test JACK server as a user starts it from a script: stdin closed,
/// stdout and stderr to a log file, the server named through `JACK_DEFAULT_SERVER` and never started by
/// the client. Killed with SIGKILL, and its log removed, when the test lets go of it still running.
final class ProsperoOnJACK {
    let process = Process()
    let logURL: URL

    /// - Parameter log: a word for the log file's name (the server's name is added).
    init(_ arguments: [String], server: JACKTestServer, log: String) throws {
        guard let prospero = JACKClientTests.prospero else { throw PeerMissing(tool: "prospero (build the package first)") }
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(log)-\(server.name).log")
        process.executableURL = prospero
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server.name
        environment["JACK_NO_START_SERVER"] = "1"
        process.environment = environment
        try process.runLogging(to: logURL)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: logURL)
    }

    /// Everything it printed so far.
    var output: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }

    /// Waits until it printed `text` (its start-up line); throws if it ended first or took longer than `timeout`.
    func waitForLine(containing text: String, timeout: Duration = generousWait) throws {
        try waitUntil("prospero to print \(text)", timeout: timeout) { output.contains(text) || !process.isRunning }
        try #require(process.isRunning, "prospero ended early: \(output)")
    }

    /// Stops it with `signal` as a user would and returns its exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGINT, timeout: Duration = generousWait) throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        try waitUntil("prospero to stop", timeout: timeout) { !process.isRunning }
        return process.terminationStatus
    }
}
