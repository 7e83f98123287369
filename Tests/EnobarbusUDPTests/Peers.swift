import Foundation
import Testing

/// Real OSC senders used as test peers (scripts/deps/enobarbus.apt and .pip).
///
/// A test that needs a missing peer is skipped with a message, unless
/// PROSPERO_REQUIRE_PEERS=1, in which case it runs and fails (so CI cannot pass by skipping).
enum Peers {
    static let required = ProcessInfo.processInfo.environment["PROSPERO_REQUIRE_PEERS"] == "1"

    static func executable(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static let python3 = executable("python3")
    static let oscsend = executable("oscsend")
    static let pythonOSC: Bool = {
        guard let python3 else { return false }
        return (try? runBlocking(python3, ["-c", "import pythonosc"], timeout: 20))?.status == 0
    }()

    /// Enables a test when the peer is present, or when peers are required (it then fails loudly).
    static func enabled(_ available: @autoclosure () -> Bool) -> Bool { required || available() }

    struct Finished { var status: Int32; var output: String }

    enum ProcessFailure: Error, CustomStringConvertible {
        case timedOut(pid: Int32, command: String)
        var description: String {
            switch self { case .timedOut(let pid, let c): "process \(pid) (\(c)) did not finish in time and was killed" }
        }
    }

    /// Starts `path` with `arguments`, waits for that pid with a deadline, kills it (by pid) if late.
    /// Polls with `Task.sleep`, so waiting never blocks a thread of the cooperative pool.
    static func run(_ path: String, _ arguments: [String], timeout: Double = 20) async throws -> Finished {
        let process = try start(path, arguments)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return try finish(process, path, arguments)
    }

    /// The same, blocking the calling thread (only for the one-off availability probe).
    static func runBlocking(_ path: String, _ arguments: [String], timeout: Double) throws -> Finished {
        let process = try start(path, arguments)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        return try finish(process, path, arguments)
    }

    static func start(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        return process
    }

    static func finish(_ process: Process, _ path: String, _ arguments: [String]) throws -> Finished {
        let pid = process.processIdentifier
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            throw ProcessFailure.timedOut(pid: pid, command: ([path] + arguments).joined(separator: " "))
        }
        process.waitUntilExit()
        let pipe = process.standardOutput as! Pipe
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Finished(status: process.terminationStatus, output: output)
    }

    /// Runs a python-osc script with `PORT` bound to `port`; records an issue if python or python-osc is missing.
    static func python(_ script: String, port: Int) async throws {
        guard let python3, pythonOSC else {
            Issue.record("python-osc is required (pip install python-osc; see scripts/deps/enobarbus.pip)")
            return
        }
        let prelude = """
            from pythonosc.udp_client import SimpleUDPClient
            from pythonosc.osc_message_builder import OscMessageBuilder
            from pythonosc.osc_bundle_builder import OscBundleBuilder, IMMEDIATELY
            PORT = \(port)
            client = SimpleUDPClient("127.0.0.1", PORT)
            def msg(address, *args):
                b = OscMessageBuilder(address=address)
                for a in args:
                    if isinstance(a, tuple): b.add_arg(a[0], a[1])
                    else: b.add_arg(a)
                return b.build()
            def send_bundle(*messages):
                b = OscBundleBuilder(IMMEDIATELY)
                for m in messages: b.add_content(m)
                client.send(b.build())

            """
        let result = try await run(python3, ["-c", prelude + script])
        #expect(result.status == 0, "python-osc sender failed: \(result.output)")
    }

    /// Runs liblo's `oscsend localhost PORT ADDRESS TYPES ARGS…`; records an issue if it is missing.
    static func oscsend(port: Int, _ address: String, _ types: String, _ args: [String]) async throws {
        guard let oscsend else {
            Issue.record("oscsend is required (apt-get install liblo-tools; see scripts/deps/enobarbus.apt)")
            return
        }
        let result = try await run(oscsend, ["127.0.0.1", "\(port)", address, types] + args)
        #expect(result.status == 0, "oscsend failed: \(result.output)")
    }
}
