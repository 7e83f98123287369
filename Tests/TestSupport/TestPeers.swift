import Foundation
import Synchronization
import Testing

/// The one peer gate: real programs used as test peers (faust, mido, python-osc, oscsend, jackd, sox…),
/// listed per module in scripts/deps/*.apt and *.pip, and the `prospero` executable of this build.
///
/// A test that needs a missing peer is skipped (reported as skipped, with what to install), unless
/// `PROSPERO_REQUIRE_PEERS=1` (set by scripts/test), in which case it fails: CI can never pass by
/// skipping, and a missing oracle is never a pass.
///
///     @Test(.enabled(if: TestPeers.enabled(TestPeers.executable("sox") != nil)))   // skip early, or
///     let sox = try TestPeers.require(TestPeers.executable("sox"), "sox (apt-get install sox)")
public enum TestPeers {
    /// Whether missing peers fail the test instead of skipping it.
    public static let required = ProcessInfo.processInfo.environment["PROSPERO_REQUIRE_PEERS"] == "1"

    /// For `.enabled(if:)`: run when the peer is present, or when peers are required (the test then
    /// fails through `require`).
    public static func enabled(_ available: @autoclosure () -> Bool) -> Bool { required || available() }

    /// The full path of an executable on PATH (or in /usr/bin, /usr/local/bin), or nil.
    public static func executable(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in directories + ["/usr/bin", "/usr/local/bin"] {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Whether python3 imports `module` (asked once per module).
    public static func python(module: String) -> Bool {
        if let known = pythonModules.withLock({ $0[module] }) { return known }
        var found = false
        if let python3 = executable("python3") {
            found = (try? runBlocking(python3, ["-c", "import \(module)"], timeout: 30))?.status == 0
        }
        pythonModules.withLock { $0[module] = found }
        return found
    }

    /// The `prospero` executable of this build (next to the test bundle), or nil before it is built.
    public static var prospero: URL? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in [directory, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("prospero")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// A peer that is required but missing.
    public struct Missing: Error, CustomStringConvertible {
        public var what: String
        public var description: String { "\(what) is required (PROSPERO_REQUIRE_PEERS=1) but missing" }
    }

    /// Returns when `available`; otherwise skips the test (it is reported as skipped, saying `what`
    /// is missing), or under PROSPERO_REQUIRE_PEERS=1 throws `Missing`, which fails it.
    public static func require(_ available: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if available { return }
        if required { throw Missing(what: what) }
        try Test.cancel("skipped: \(what) not installed", sourceLocation: sourceLocation)
    }

    /// The value when present (a path, a URL…); otherwise as `require(_:_:)`.
    public static func require<T>(_ value: T?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        try require(value != nil, what, sourceLocation: sourceLocation)
        return value!
    }

    /// What a finished peer printed (stdout and stderr together) and its exit status.
    public struct Finished: Sendable {
        public var status: Int32
        public var output: String
    }

    /// A peer that did not finish in time; it was killed by its process id.
    public struct TimedOut: Error, CustomStringConvertible {
        public var pid: Int32
        public var command: String
        /// The seconds it was given and the seconds it ran.
        public var timeout: Double, ran: Double
        /// The end of what it printed before it was killed (where it was stuck).
        public var output: String
        public var description: String {
            "process \(pid) (\(command)) did not finish within \(Int(timeout)) s (ran \(Int(ran)) s) "
                + "and was killed; its output ended:\n\(output)"
        }
    }

    /// Runs `tool` (a name on PATH or a path) and waits for that pid with a deadline, polling with
    /// `Task.sleep` so no thread of the cooperative pool is blocked; kills it by pid if it is late. The
    /// deadline is `timeout` seconds and never less than ``Eventually/bound`` (a bound for a busy 2-core machine):
    /// a guard against a hung peer, not a measurement.
    public static func run(_ tool: String, _ arguments: [String], timeout: Double = 60) async throws -> Finished {
        let path = try require(tool.hasPrefix("/") ? tool : executable(tool), tool)
        let process = try start(path, arguments)
        let deadline = Deadline(seconds: timeout)
        while process.isRunning && !deadline.expired { try await Task.sleep(for: .milliseconds(5)) }
        return try finish(process, path, arguments, deadline: deadline)
    }

    /// The same, blocking the calling thread (for synchronous tests and one-off probes).
    public static func runBlocking(_ tool: String, _ arguments: [String], timeout: Double = 60) throws -> Finished {
        let path = try require(tool.hasPrefix("/") ? tool : executable(tool), tool)
        let process = try start(path, arguments)
        let deadline = Deadline(seconds: timeout)
        while process.isRunning && !deadline.expired { usleep(5_000) }
        return try finish(process, path, arguments, deadline: deadline)
    }

    /// Kills `pid` and every process below it (SIGKILL; children first, found through /proc's parent ids).
    public static func killTree(_ pid: Int32) {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (comm) state ppid …": the command may hold spaces and parentheses, so read after the last ')'.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { children[parent, default: []].append(child) }
        }
        var order: [Int32] = []
        var queue = [pid]
        while let next = queue.popLast() {
            order.append(next)
            queue += children[next] ?? []
        }
        for victim in order.reversed() { kill(victim, SIGKILL) }
    }

    /// A wall-clock guard against a hung peer.
    struct Deadline {
        let seconds: Double
        private let start = Date()
        init(seconds: Double) { self.seconds = max(seconds, Eventually.bound) }
        var elapsed: Double { Date().timeIntervalSince(start) }
        var expired: Bool { elapsed >= seconds }
    }

    private static let pythonModules = Mutex<[String: Bool]>([:])

    private static func start(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // Output goes to a file, not a pipe: a chatty peer can never block on a full pipe.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString).log")
        try process.runLogging(to: log)
        logs.withLock { $0[ObjectIdentifier(process)] = log }
        return process
    }

    private static let logs = Mutex<[ObjectIdentifier: URL]>([:])

    private static func finish(_ process: Process, _ path: String, _ arguments: [String], deadline: Deadline) throws -> Finished {
        let pid = process.processIdentifier
        let log = logs.withLock { $0.removeValue(forKey: ObjectIdentifier(process)) }
        defer { if let log { try? FileManager.default.removeItem(at: log) } }
        if process.isRunning {
            // The whole tree: a browser script's chromedriver and Chromium outlive a killed Python and kept
            // both cores busy for the rest of the run.
            killTree(pid)
            process.waitUntilExit()
            let printed = log.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
            throw TimedOut(pid: pid, command: ([path] + arguments).joined(separator: " "), timeout: deadline.seconds,
                           ran: deadline.elapsed, output: String(printed.suffix(4_000)))
        }
        process.waitUntilExit()
        let output = log.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        return Finished(status: process.terminationStatus, output: output)
    }

    /// Returns when the kernel device at `path` opens for reading and writing. Otherwise the test is
    /// skipped (reported as skipped, saying what is missing), or under PROSPERO_REQUIRE_PEERS=1 fails when
    /// the running kernel has the driver (`driverLoaded`): scripts/test then makes the node, so a missing
    /// one is a broken setup. A kernel built without the driver (a VM's minimal kernel) is not something
    /// any package installs: that stays a skip, named in the test report.
    public static func requireDevice(
        _ path: String, _ what: String, driverLoaded: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if FileManager.default.isReadableFile(atPath: path) && FileManager.default.isWritableFile(atPath: path) { return }
        if required && driverLoaded { throw Missing(what: "\(what) (\(path); the kernel has the driver)") }
        try Test.cancel("skipped: \(what) (\(path)) not available\(driverLoaded ? "" : ": this kernel has no such driver")",
                        sourceLocation: sourceLocation)
    }

    /// The minor number of the misc device `name` (major 10) when the running kernel has its driver,
    /// from /proc/misc; nil otherwise.
    public static func miscDeviceMinor(_ name: String) -> Int? {
        guard let table = try? String(contentsOfFile: "/proc/misc", encoding: .utf8) else { return nil }
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2, fields[1] == name { return Int(fields[0]) }
        }
        return nil
    }
}
