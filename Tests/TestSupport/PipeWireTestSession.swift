import Ariel
import Foundation
import Glibc
import Testing

/// A private PipeWire for one test, the way most Linux desktops run it: its own D-Bus session bus,
/// `pipewire` and `wireplumber` in a temporary runtime directory (`XDG_RUNTIME_DIR`), and one null sink
/// standing in for the sound card or the earbuds. Nothing is shared with the machine's own audio or
/// with another test; every process is stopped by its process id, and the directory goes.
///
/// Clients reach it through `pw-jack` (PipeWire's libjack) with ``environment``:
///
///     let pipewire = try PipeWireTestSession(sink: .bluetooth)
///     defer { pipewire.stop() }
///     let play = try pipewire.start(prospero.path, ["play"])       // runs `pw-jack prospero play`
///     let rec = try pipewire.run("jack_rec", ["-f", file, "-d", "2", pipewire.sink.monitor[0]])
///
/// Debian 12's `pipewire pipewire-jack wireplumber pipewire-bin` and `dbus` (scripts/deps/jack.apt).
public final class PipeWireTestSession: @unchecked Sendable {
    /// The null sink: its node name, description (PipeWire-JACK's client name for its ports) and object
    /// path (PipeWire-JACK's first port alias).
    public struct Sink: Sendable {
        public var nodeName: String
        public var description: String
        public var objectPath: String
        /// Extra node properties ("device.api" = "bluez5").
        public var properties: [String: String]

        public init(nodeName: String, description: String, objectPath: String, properties: [String: String] = [:]) {
            self.nodeName = nodeName
            self.description = description
            self.objectPath = objectPath
            self.properties = properties
        }

        /// A sound card's analog output, named as PipeWire names one.
        public static let wired = Sink(nodeName: "alsa_output.pci-0000_00_1f.3.analog-stereo", description: "Built-in Audio Analog Stereo",
                                       objectPath: "alsa:pcm:0:front:0:playback")
        /// Bluetooth earbuds, named as PipeWire's bluez5 monitor names them (the address in the node name and
        /// object path, the product as the description).
        public static let bluetooth = Sink(nodeName: "bluez_output.14_3F_A6_28_DC_51.1", description: "WH-1000XM4",
                                           objectPath: "bluez_output.14_3F_A6_28_DC_51.1", properties: ["device.api": "bluez5"])

        /// The JACK names of its two playback ports and its two monitor ports.
        public var playback: [String] { ["\(description):playback_FL", "\(description):playback_FR"] }
        public var monitor: [String] { ["\(description):monitor_FL", "\(description):monitor_FR"] }
    }

    /// The tools it needs, all from Debian packages.
    public static let tools = ["dbus-daemon", "pipewire", "wireplumber", "pw-cli", "pw-jack"]
    public static var available: Bool { tools.allSatisfy { TestPeers.executable($0) != nil } }
    public static let packages = "pipewire pipewire-jack pipewire-bin wireplumber dbus (scripts/deps/jack.apt)"

    public let sink: Sink
    /// The private runtime directory (sockets of the bus and of PipeWire).
    public let directory: URL
    /// The variables a client needs to reach this PipeWire (and only it); the rest of the test's environment is kept.
    public let environment: [String: String]
    private var daemons: [(name: String, process: Process, log: URL)] = []

    /// What went wrong while starting, with the daemons' own words.
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts the bus, PipeWire and WirePlumber, creates the sink and waits until PipeWire-JACK lists its ports.
    public init(sink: Sink = .wired) throws {
        self.sink = sink
        for tool in Self.tools { _ = try TestPeers.require(TestPeers.executable(tool), "\(tool) (apt-get install \(Self.packages))") }
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("prospero-pipewire-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for sub in ["config", "state", "data"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let bus = directory.appendingPathComponent("bus").path
        environment = [
            "XDG_RUNTIME_DIR": directory.path,
            "PIPEWIRE_RUNTIME_DIR": directory.path,
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus)",
            "JACK_NO_START_SERVER": "1",
        ]
        do {
            // The daemons keep their own state (WirePlumber's restore files) in the directory, never the user's.
            let own = ["XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
                       "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
                       "XDG_DATA_HOME": directory.appendingPathComponent("data").path]
            try startDaemon("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(bus)"], own)
            try waitFor("the D-Bus session bus") { FileManager.default.fileExists(atPath: bus) }
            try startDaemon("pipewire", [], own)
            try waitFor("pipewire to accept clients") { (try? self.run("pw-cli", ["info", "0"], timeout: 10).status) == 0 }
            try startDaemon("wireplumber", [], own)
            var properties = ["factory.name": "support.null-audio-sink", "node.name": sink.nodeName,
                              "node.description": sink.description, "object.path": sink.objectPath,
                              "media.class": "Audio/Sink", "object.linger": "true", "audio.position": "[ FL FR ]"]
            properties.merge(sink.properties) { $1 }
            let spa = "{ " + properties.sorted { $0.key < $1.key }.map { key, value in
                value.hasPrefix("[") ? "\(key) = \(value)" : "\(key) = \"\(value)\""
            }.joined(separator: " ") + " }"
            let created = try run("pw-cli", ["create-node", "adapter", spa])
            guard created.status == 0 else { throw Failed(description: "pw-cli create-node: \(created.output)") }
            try waitFor("the sink's ports in PipeWire-JACK") {
                let listed = (try? self.run("jack_lsp", [], timeout: 10))?.output ?? ""
                return sink.playback.allSatisfy(listed.contains) && sink.monitor.allSatisfy(listed.contains)
            }
        } catch {
            let logs = report()
            stop()
            if error is TestPeers.Missing { throw error }
            throw Failed(description: "\(error)\n\(logs)")
        }
    }

    /// Each daemon's last output lines, for a failure message.
    public func report() -> String {
        daemons.map { daemon in
            let text = (try? String(contentsOf: daemon.log, encoding: .utf8)) ?? ""
            return "--- \(daemon.name) (pid \(daemon.process.processIdentifier)):\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    private func startDaemon(_ tool: String, _ arguments: [String], _ own: [String: String]) throws {
        let path = try TestPeers.require(TestPeers.executable(tool), tool)
        let process = Process()
        if let setpriv = TestPeers.executable("setpriv") {
            // It gets SIGTERM if the test process dies, so a crashed run leaves no daemon behind (setpriv execs: same pid).
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "TERM", path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        process.environment = mergedEnvironment(own)
        let log = directory.appendingPathComponent("\(tool).log")
        try process.runLogging(to: log)
        daemons.append((tool, process, log))
    }

    /// The test's environment with this PipeWire's variables (and `extra`) in place.
    public func mergedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(extra) { $1 }
        // A jackd test's server name must not send a pw-jack client elsewhere.
        if extra["JACK_DEFAULT_SERVER"] == nil { merged.removeValue(forKey: "JACK_DEFAULT_SERVER") }
        return merged
    }

    /// Waits for a daemon's outcome within ``Eventually/bound`` (a bound for a busy machine); a daemon that exits
    /// meanwhile fails it at once.
    private func waitFor(_ what: String, _ condition: () -> Bool) throws {
        try Eventually.holds("waiting for \(what)", poll: 0.05) {
            if let dead = daemons.first(where: { !$0.process.isRunning }) {
                throw Failed(description: "\(dead.name) exited (status \(dead.process.terminationStatus)) while waiting for \(what)")
            }
            return condition()
        }
    }

    /// `pw-jack TOOL ARGUMENTS` started in the background with this PipeWire's environment; output to `log`
    /// (a file in the session's directory when nil). The caller stops it by its pid (``stop(_:signal:)``).
    public func start(_ tool: String, _ arguments: [String], log: URL? = nil, extra: [String: String] = [:]) throws -> (process: Process, log: URL) {
        let path = try TestPeers.require(tool.hasPrefix("/") ? tool : TestPeers.executable(tool), tool)
        let pwJack = try TestPeers.require(TestPeers.executable("pw-jack"), "pw-jack (apt-get install pipewire-jack)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pwJack)
        process.arguments = [path] + arguments
        process.environment = mergedEnvironment(extra)
        let log = log ?? directory.appendingPathComponent("\((path as NSString).lastPathComponent)-\(UUID().uuidString.prefix(8)).log")
        try process.runLogging(to: log)
        return (process, log)
    }

    /// `pw-jack TOOL ARGUMENTS` to its end (killed by pid after `timeout` seconds: a guard against a hung tool).
    public func run(_ tool: String, _ arguments: [String], timeout: Double = Eventually.bound) throws -> TestPeers.Finished {
        let (process, log) = try start(tool, arguments)
        defer { try? FileManager.default.removeItem(at: log) }
        let started = Date()
        let deadline = started.addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            Self.stop(process, signal: SIGKILL)
            let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw TestPeers.TimedOut(pid: process.processIdentifier, command: ([tool] + arguments).joined(separator: " "),
                                     timeout: timeout, ran: Date().timeIntervalSince(started), output: String(printed.suffix(4_000)))
        }
        return TestPeers.Finished(status: process.terminationStatus, output: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// Records `ports` (by default the sink's two monitor ports) for `seconds` with `jack_rec` (24-bit WAV), once.
    ///
    /// jack_rec's ring holds the whole recording (`-B`), so that its disk thread, however far a busy machine holds
    /// it back, never loses a frame (with the default 16 384 frames PipeWire-JACK's 1024-frame periods overran it,
    /// and the file then held garbage): an overrun it still reports is a failure.
    public func record(_ ports: [String]? = nil, seconds: Int) throws -> WAVAudio {
        let file = directory.appendingPathComponent("record-\(UUID().uuidString.prefix(8)).wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorded = try run("jack_rec", ["-f", file, "-d", "\(seconds)", "-b", "24", "-B", "\((seconds + 2) * 48_000)"] + (ports ?? sink.monitor),
                               timeout: Double(seconds) + Eventually.bound)
        guard recorded.status == 0 else { throw Failed(description: "jack_rec: \(recorded.output)") }
        guard !recorded.output.lowercased().contains("overrun") else { throw Failed(description: "jack_rec overran: \(recorded.output)") }
        return try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    /// Sends `signal` to `process` and waits up to `timeout` seconds for it to end; SIGKILL if it will not (a
    /// clean-up, never a test's verdict).
    public static func stop(_ process: Process, signal: Int32 = SIGINT, timeout: Double = 5) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Stops WirePlumber, PipeWire and the bus (the reverse of their start) by pid and removes the directory.
    public func stop() {
        for daemon in daemons.reversed() { Self.stop(daemon.process, signal: SIGTERM) }
        daemons.removeAll()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
