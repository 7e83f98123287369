import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `prospero studio` as a user runs it: it prints its URL, serves, and stops cleanly on SIGINT/SIGTERM.
@Suite("prospero studio", .serialized, .ownThread)
struct StudioCommandTests {
    /// Starts `prospero studio` with `arguments`; returns the process, its output file and the URL it printed.
    /// `environment` replaces the inherited one when given (the inherited one without a chosen token otherwise).
    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, URL, String) {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("studio-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = prospero
        process.arguments = ["studio"] + arguments
        process.environment = environment ?? Self.environment(token: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        var url: String?
        try? Eventually.holds("the URL", poll: 0.05) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            url = text.split(separator: "\n").first { $0.hasPrefix("studio: http") }.map { String($0.dropFirst("studio: ".count)) }
            return url != nil || !process.isRunning
        }
        if let url { return (process, log, url) }
        kill(process.processIdentifier, SIGKILL)
        throw RawClient.Failure("prospero studio printed no URL: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// This process's environment with the studio's token variable set to `token` (nil: removed). The token is
    /// never an argument: every user of the machine reads a process's command line.
    static func environment(token: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PROSPERO_STUDIO_TOKEN"] = token
        return environment
    }

    func port(of url: String) -> Int { Int(url.split(separator: ":").last!.split(separator: "/").first!)! }

    @Test("SIGINT and SIGTERM stop it cleanly: exit 0, sockets closed", arguments: [SIGINT, SIGTERM])
    func signalStop(_ signal: Int32) throws {
        let (process, log, url) = try Self.start(["--port", "0", "--osc-port", "0", "--audio", "none"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = port(of: url)
        #expect(url == "http://127.0.0.1:\(port)/")
        let page = try RawClient(port: port).request("/", headers: [("Host", "127.0.0.1:\(port)")])
        #expect(page.status == 200)
        let socket = try RawClient(port: port)
        #expect(try socket.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)").status == 101)
        kill(process.processIdentifier, signal)
        try Eventually.holds("the studio's stop after signal \(signal)") { !process.isRunning }
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        // The socket was closed by the server (end of stream, not a timeout).
        #expect(socket.readFrame() == nil)
        #expect(throws: (any Error).self) { try RawClient(port: port).request("/", headers: [("Host", "127.0.0.1:\(port)")]) }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(output.contains(signal == SIGINT ? "SIGINT" : "SIGTERM"), "\(output)")
    }

    @Test("off loopback it makes a token, prints it in the URL and a QR code; bad options are refused")
    func tokenAndOptions() throws {
        let (process, _, url) = try Self.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--host", "0.0.0.0"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let token = url.split(separator: "=").last.map(String.init) ?? ""
        #expect(url.contains("/?token=") && token.count == 32)
        let port = port(of: url.split(separator: "?").first.map(String.init)!)
        let refused = try RawClient(port: port).request("/", headers: [("Host", "127.0.0.1:\(port)")])
        #expect(refused.status == 401)
        let allowed = try RawClient(port: port).request("/?token=\(token)", headers: [("Host", "127.0.0.1:\(port)")])
        #expect(allowed.status == 200)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()

        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable")
        for (arguments, message) in [(["--audio", "loud"], "--audio must be"), (["--token-file", "/nonexistent-token"], "--token-file /nonexistent-token: cannot read it (no such file)"),
                                     (["--port", "70000"], "--port must be"), (["--tls", "/nonexistent.pem", "/x.pem"], "--tls: cannot read"),
                                     (["--camera", "/nonexistent-camera.avi"], "--camera: no camera or video file at /nonexistent-camera.avi"),
                                     (["--camera", "97"], "--camera: no camera 97")] {
            let result = try TestPeers.runBlocking(prospero.path, ["studio"] + arguments, timeout: 30)
            #expect(result.status != 0 && result.output.contains(message), "\(arguments): \(result.output)")
        }
        // `--camera` alone (here before another option) is the first camera: this machine has none, or it would start.
        if !FileManager.default.fileExists(atPath: "/dev/video0") {
            let bare = try TestPeers.runBlocking(prospero.path, ["studio", "--camera", "--port", "0"], timeout: 30)
            #expect(bare.status != 0 && bare.output.contains("--camera: no camera 0 (/dev/video0 does not exist"), "\(bare.output)")
        }
        // --camera without a camera environment says so and names the setup script.
        let noVenv = try TestPeers.runBlocking("/usr/bin/env", ["PROSPERO_CAMERA_VENV=/nonexistent-venv", prospero.path, "studio", "--camera", "/dev/null"], timeout: 30)
        #expect(noVenv.status != 0 && noVenv.output.contains("scripts/camera-setup"), "\(noVenv.output)")
    }

    /// The arguments of the running process `pid`, as /proc keeps them (NUL-separated).
    static func commandLine(of pid: Int32) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        return String(decoding: bytes.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    @Test("a chosen token comes from --token-file or PROSPERO_STUDIO_TOKEN, never from the command line: the running studio's /proc/PID/cmdline does not hold it")
    func chosenTokenNeverInTheCommandLine() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studio-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let fromEnvironment = "env-token-\(UUID().uuidString.prefix(12))"
        let fromFile = "file-token-\(UUID().uuidString.prefix(12))"
        let file = work.appendingPathComponent("token")
        // The first line, trimmed (a trailing CR and spaces too); the lines after it are not read as the token.
        try Data("  \(fromFile) \r\nsecond line\n".utf8).write(to: file)
        #expect(chmod(file.path, 0o600) == 0)

        for (arguments, token) in [([String](), fromEnvironment), (["--token-file", file.path], fromFile)] {
            // The variable is set in both runs: the file wins over it.
            let (process, log, url) = try Self.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings", "--no-qr",
                                                      "--host", "0.0.0.0"] + arguments,
                                                     environment: Self.environment(token: fromEnvironment))
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            #expect(url.hasSuffix("/?token=\(token)"), "\(url)")
            let commandLine = try Self.commandLine(of: process.processIdentifier)
            #expect(commandLine.contains("prospero-studio") && commandLine.contains("--no-settings"), "\(commandLine)")
            #expect(!commandLine.contains(fromEnvironment) && !commandLine.contains(fromFile), "\(commandLine)")
            let port = port(of: url.split(separator: "?").first.map(String.init)!)
            let host = [("Host", "127.0.0.1:\(port)")]
            #expect(try RawClient(port: port).request("/", headers: host).status == 401)
            #expect(try RawClient(port: port).request("/?token=\(token == fromFile ? fromEnvironment : fromFile)", headers: host).status == 401)
            #expect(try RawClient(port: port).request("/?token=\(token)", headers: host).status == 200)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        // On loopback, a chosen token is needed as well.
        let (process, _, url) = try Self.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings"],
                                                environment: Self.environment(token: fromEnvironment))
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/?token=\(fromEnvironment)"), "\(url)")
        let port = port(of: url.split(separator: "?").first.map(String.init)!)
        #expect(try RawClient(port: port).request("/", headers: [("Host", "127.0.0.1:\(port)")]).status == 401)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }

    @Test("--token is refused saying why and what to use instead; a bad token file or variable is named, its contents never echoed")
    func tokenOnTheCommandLineRefused() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable")
        let options = ["--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings"]
        for arguments in [["--token", "cmdline-token-1234"], ["--token=cmdline-token-1234"], ["--host", "0.0.0.0", "--token", "cmdline-token-1234"]] {
            let result = try TestPeers.runBlocking(prospero.path, ["studio"] + options + arguments, timeout: 30)
            #expect(result.status != 0, "\(arguments): \(result.output)")
            for words in ["--token is not accepted", "/proc/PID/cmdline", "--token-file FILE", "PROSPERO_STUDIO_TOKEN"] {
                #expect(result.output.contains(words), "\(arguments): \(result.output)")
            }
            // The reason, not the usage text of an unknown option.
            #expect(!result.output.contains("Usage:") && !result.output.contains("Unknown option"), "\(arguments): \(result.output)")
            #expect(!result.output.contains("studio: http"), "it started: \(result.output)")
        }
        // The help names the file and the variable, and no --token option.
        let help = try TestPeers.runBlocking(prospero.path, ["studio", "--help"], timeout: 30)
        #expect(help.output.contains("--token-file <FILE>") && help.output.contains("PROSPERO_STUDIO_TOKEN"), "\(help.output)")
        #expect(!help.output.contains("--token <"), "\(help.output)")

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studio-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let empty = work.appendingPathComponent("empty")
        try Data("\n\nlater-token-123\n".utf8).write(to: empty)
        let invalid = work.appendingPathComponent("invalid")
        try Data("not a valid token !\n".utf8).write(to: invalid)
        for (file, message) in [(empty.path, "--token-file \(empty.path): the file is empty"),
                                (invalid.path, "--token-file \(invalid.path): the first line is not a token"),
                                (work.path, "--token-file \(work.path): cannot read it (a directory)"),
                                (work.appendingPathComponent("missing").path, "cannot read it (no such file)")] {
            let result = try TestPeers.runBlocking(prospero.path, ["studio"] + options + ["--token-file", file], timeout: 30)
            #expect(result.status != 0 && result.output.contains(message), "\(file): \(result.output)")
            #expect(!result.output.contains("valid token !") && !result.output.contains("studio: http"), "\(result.output)")
        }
        let variable = try TestPeers.runBlocking("/usr/bin/env", ["PROSPERO_STUDIO_TOKEN=bad token!", prospero.path, "studio"] + options, timeout: 30)
        #expect(variable.status != 0 && variable.output.contains("PROSPERO_STUDIO_TOKEN is not a token"), "\(variable.output)")
        #expect(!variable.output.contains("bad token!") && !variable.output.contains("studio: http"), "\(variable.output)")
    }

    @Test("Hecate offers the user's pack files from $XDG_CONFIG_HOME/prospero/packs by id; bad files are named and skipped")
    func hecateUserPacks() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("studio-packs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let packs = config.appendingPathComponent("prospero/packs")
        try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/soundPack")
        // A valid pack (id "user-pack"), one with a field out of range, one that is not JSON, one that
        // reuses a built-in's id, and a file that is not *.json (not read).
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("valid.json"), to: packs.appendingPathComponent("mine.json"))
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("out-of-range.json"), to: packs.appendingPathComponent("range.json"))
        try Data("{not json".utf8).write(to: packs.appendingPathComponent("broken.json"))
        let valid = try String(contentsOf: corpus.appendingPathComponent("valid.json"), encoding: .utf8)
        try Data(valid.replacingOccurrences(of: "\"user-pack\"", with: "\"cathedral\"").utf8).write(to: packs.appendingPathComponent("taken.json"))
        try Data(valid.replacingOccurrences(of: "\"user-pack\"", with: "\"hidden\"").utf8).write(to: packs.appendingPathComponent("notes.txt"))

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        let (process, log, url) = try Self.start(["--port", "0", "--osc-port", "0", "--audio", "none"], environment: environment)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = port(of: url)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        for file in ["range.json", "broken.json", "taken.json"] {
            #expect(output.contains("studio: hecate pack \(file):"), "\(file) not reported: \(output)")
        }
        #expect(!output.contains("mine.json") && !output.contains("notes.txt"), "\(output)")

        let socket = try RawClient(port: port)
        #expect(try socket.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)").status == 101)
        socket.sendText(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
        socket.sendText(#"{"type":"select","instrument":"hecate"}"#)
        let state = socket.readJSON { $0["type"] as? String == "state" && $0["instrument"] as? String == "hecate" }
        let list = ((state?["state"] as? [String: Any])?["packs"] as? [[String: Any]]) ?? []
        // The page sees ids and names only: no path.
        #expect(list.map { $0["id"] as? String } == ["cathedral", "coven", "user-pack"], "\(list)")
        #expect(list.last?["builtIn"] as? Bool == false && list.last?["name"] as? String == "User")
        #expect(!"\(list)".contains(config.path))
        socket.sendText(#"{"type":"set","path":"hecate.pack","value":"user-pack"}"#)
        let changed = socket.readJSON { $0["type"] as? String == "changed" || $0["type"] as? String == "error" }
        #expect((changed?["changes"] as? [String: Any])?["pack"] as? String == "user-pack", "\(String(describing: changed))")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
