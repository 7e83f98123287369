import Enobarbus
import Foundation
import Glibc
import ProsperoJACK
import ProsperoTestSupport
import Synchronization
import Testing

/// Every live command, started as a user or a script starts it (stdout to a file, to a pipe, or as a
/// background job of a non-interactive shell, which starts it with SIGINT ignored), stops on SIGINT,
/// SIGTERM or SIGHUP, exits 0 and prints its summary; `hands` sends its note-offs and CC 123 to
/// jack_midi_dump, `osc record` leaves a file of whole lines. How soon a command stops is a figure for
/// the live bench; here the stop must come, within a bound for a busy machine. Part of the serialized
/// JACK suite (one server per test, stopped by pid).
extension JACKClientTests {
    enum StartMode: String, CaseIterable, Sendable { case file, pipe, shellBackground }

    struct LiveRun {
        var status: Int32
        var output: String
    }

    /// Runs `prospero arguments` in `mode`, waits for `ready` in its output, calls `during`, sends `signal`
    /// (with `secondSignal`, again once the first was delivered) and waits for the process to end.
    static func runLive(_ arguments: [String], server: String, mode: StartMode, signal: Int32,
                        ready: String, secondSignal: Bool = false, during: () throws -> Void = {}) throws -> LiveRun {
        guard let prospero else { throw PeerMissing(tool: "prospero (build the package first)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-stop-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outFile = directory.appendingPathComponent("out.log").path
        let pidFile = directory.appendingPathComponent("pid").path
        let statusFile = directory.appendingPathComponent("status").path
        FileManager.default.createFile(atPath: outFile, contents: nil)

        let process = Process()
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server
        environment["JACK_NO_START_SERVER"] = "1"
        process.environment = environment
        let collected = Mutex(Data())
        let pipe = Pipe()
        switch mode {
        case .file:
            process.executableURL = prospero
            process.arguments = arguments
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
            process.standardOutput = handle
            process.standardError = handle
        case .pipe:
            process.executableURL = prospero
            process.arguments = arguments
            process.standardOutput = pipe
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { h in
                let data = h.availableData
                collected.withLock { $0.append(data) }
            }
        case .shellBackground:
            break
        }
        process.standardInput = FileHandle.nullDevice
        var shell: pid_t = 0
        if mode == .shellBackground {
            // sh starts an asynchronous list with SIGINT and SIGQUIT ignored (POSIX 2.11).
            shell = try Self.spawnShell("\"$0\" \"$@\" > '\(outFile)' 2>&1 & echo $! > '\(pidFile)'; wait $!; echo $? > '\(statusFile)'",
                                        [prospero.path] + arguments, environment: environment)
        } else {
            try process.run()
        }
        defer { if mode != .shellBackground && process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var shellStatus: Int32 = 0
        func isRunning() -> Bool {
            guard mode == .shellBackground else { return process.isRunning }
            return waitpid(shell, &shellStatus, WNOHANG) == 0
        }
        func output() -> String {
            mode == .pipe ? String(decoding: collected.withLock { $0 }, as: UTF8.self)
                : ((try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "")
        }
        var pid = process.processIdentifier
        if mode == .shellBackground {
            try waitUntil("the background job's pid") {
                (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } != nil
            }
            pid = Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
        }
        defer { kill(pid, SIGKILL) }
        try waitUntil("'\(ready)' from prospero \(arguments.joined(separator: " "))") {
            output().contains(ready) || !isRunning()
        }
        try #require(isRunning(), "prospero ended early: \(output())")
        try during()
        kill(pid, signal)
        if secondSignal {
            // Two signals pending at once are one (standard signals do not queue): the second is sent once the first
            // has been delivered, as a user's second Ctrl-C comes after the first was seen.
            _ = try? waitUntil("signal \(signal) delivered") { !Self.isPending(signal, pid) }
            kill(pid, signal)
        }
        do {
            try waitUntil("prospero to stop") {
                mode == .shellBackground ? Self.hasEnded(pid) : !process.isRunning
            }
        } catch {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "(no /proc entry)"
            Issue.record("\(mode): prospero \(arguments.joined(separator: " ")) did not stop on signal \(signal):\n\(output())\n\(state)")
            throw error
        }
        try waitUntil("the shell to end") { !isRunning() }
        let status: Int32
        if mode == .shellBackground {
            status = Int32(try String(contentsOfFile: statusFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        } else {
            status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        }
        if mode == .pipe {
            pipe.fileHandleForReading.readabilityHandler = nil
            let rest = pipe.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.append(rest) }
        }
        return LiveRun(status: status, output: output())
    }

    /// Starts `/bin/sh -c script arguments…` with no signal blocked and every signal at its default
    /// (Foundation's Process hands its children the test runner's blocked SIGCHLD, on which dash's
    /// `wait` never returns), as a login shell script would run.
    static func spawnShell(_ script: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ["/bin/sh", "-c", script] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnvp = envp.map { strdup($0) } + [nil]
        defer { (cArgv + cEnvp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", nil, &attributes, &cArgv, &cEnvp)
        guard result == 0 else { throw PeerMissing(tool: "/bin/sh (posix_spawn failed: \(result))") }
        return pid
    }

    /// Whether a process-directed `signal` waits to be delivered to `pid` (`ShdPnd` of `/proc/PID/status`).
    static func isPending(_ signal: Int32, _ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("ShdPnd:") }),
              let mask = UInt64(line.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// Whether `pid` is gone or a zombie (ended, not yet reaped by its shell).
    static func hasEnded(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    static func expectCleanStop(_ run: LiveRun, _ what: String, signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "?"
        #expect(run.status == 0, "\(what): exit status \(run.status)\n\(run.output)", sourceLocation: sourceLocation)
        #expect(run.output.contains("stopped by \(name)"), "\(what): no summary\n\(run.output)", sourceLocation: sourceLocation)
    }

    static var freePort: Int { 20_000 + Int(getpid() % 20_000) + Int.random(in: 0..<5_000) }

    static let liveStopRunnable = Peers.runnable("jackd") && (Peers.required || JACKClientTests.prospero != nil)

    @Test(.enabled(if: liveStopRunnable))
    func playStopsOnEverySignalHoweverItWasStarted() throws {
        let server = try JACKTestServer(period: 1024)
        for (mode, signal) in [(StartMode.file, SIGINT), (.pipe, SIGTERM), (.shellBackground, SIGINT), (.shellBackground, SIGTERM), (.file, SIGHUP)] {
            let run = try Self.runLive(["play", "--client-name", "StopPlay", "--no-connect-audio"], server: server.name,
                                       mode: mode, signal: signal, ready: "playback latency")
            Self.expectCleanStop(run, "play, \(mode)", signal: signal)
            #expect(run.output.contains("Stopped (stopped by"), "\(run.output)")
        }
    }

    /// A second signal while the stop is under way ends the process at once with 128 + the signal, and says so.
    /// The stop waits for the client's final period, which a held server (SIGSTOP) never runs: the stop is then
    /// under way for as long as the test holds the server, however late a busy machine sends the second signal.
    @Test(.enabled(if: liveStopRunnable))
    func aSecondSignalDuringTheStopExitsAtOnceWith130Or143() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let server = try JACKTestServer(period: 1024)
            defer { server.stop() }
            var held = false
            defer { if held { kill(server.jackd.pid, SIGCONT) } }
            let run = try Self.runLive(["play", "--client-name", "StopTwice", "--no-connect-audio"], server: server.name,
                                       mode: .file, signal: signal, ready: "playback latency", secondSignal: true) {
                kill(server.jackd.pid, SIGSTOP)
                held = true
            }
            let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
            #expect(run.status == status, "\(run.output)")
            #expect(run.output.contains("second \(name) during shutdown; exiting now (\(status))"), "\(run.output)")
            #expect(!run.output.contains("Stopped ("), "the stop had not ended: \(run.output)")
        }
    }

    @Test(.enabled(if: liveStopRunnable))
    func hecateAndTheOSCCommandsStopHoweverTheyWereStarted() throws {
        let server = try JACKTestServer(period: 1024)
        for (mode, signal) in [(StartMode.file, SIGTERM), (.pipe, SIGINT), (.shellBackground, SIGINT)] {
            let run = try Self.runLive(["hecate", "--client-name", "StopHecate", "--no-connect-audio", "--port", "\(Self.freePort)"],
                                       server: server.name, mode: mode, signal: signal, ready: "playback latency")
            Self.expectCleanStop(run, "hecate, \(mode)", signal: signal)
        }
        for (mode, signal) in [(StartMode.shellBackground, SIGINT), (.pipe, SIGTERM), (.file, SIGHUP)] {
            let run = try Self.runLive(["osc", "monitor", "--port", "\(Self.freePort)"], server: server.name,
                                       mode: mode, signal: signal, ready: "Ctrl-C to stop")
            Self.expectCleanStop(run, "osc monitor, \(mode)", signal: signal)
        }
    }

    /// `osc record` stopped while touches stream in (the signal comes once the file holds a frame, the touches
    /// still coming): every line of the file is whole and the file reads back with as many frames as the command
    /// reports.
    @Test(.enabled(if: liveStopRunnable))
    func oscRecordLeavesACompleteFileOnEveryStop() throws {
        for (mode, signal) in [(StartMode.shellBackground, SIGINT), (.file, SIGTERM), (.pipe, SIGINT)] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("stop-record-\(getpid())-\(mode).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let port = Self.freePort
            let sending = PipeWireTests.Sending()
            let touches = Thread {
                guard let sender = try? UDPTestSender() else { return }
                // Bounded: 20 000 touches, 1 ms apart, if the test never says stop.
                for k in 0..<20_000 where sending.on.load(ordering: .relaxed) {
                    sender.send(try! OSCEncoder.encode(OSCMessage("/prospero/touch", [
                        .int32(0), .float32(Float(k % 200) / 200), .float32(0.5), .float32(0.5)])), port: port)
                    usleep(1_000)
                }
            }
            defer { sending.on.store(false, ordering: .relaxed) }
            let run = try Self.runLive(["osc", "record", file, "--port", "\(port)"], server: "none", mode: mode, signal: signal,
                                       ready: "Ctrl-C to stop") {
                touches.start()
                // The header, then a frame: the recorder writes what it holds four times a second.
                try waitUntil("a frame in the file") {
                    ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count >= 2
                }
            }
            sending.on.store(false, ordering: .relaxed)
            Self.expectCleanStop(run, "osc record, \(mode)", signal: signal)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(bytes.last == UInt8(ascii: "\n"), "the file ends with a whole line")
            let recording = try RecordingReader.parse(bytes)
            #expect(recording.frames.count > 0)
            #expect(run.output.contains("recorded \(recording.frames.count) frames"), "\(run.output)")
        }
    }

    /// A hand holds A4 (its timeout is long, so only the stop can end the note); on the signal, the
    /// note-off and CC 123 reach jack_midi_dump before the command exits 0.
    @Test(.enabled(if: liveStopRunnable && Peers.runnable("jack_midi_dump")))
    func handsStopsWithNoteOffsAtMidiDumpHoweverItWasStarted() throws {
        let server = try JACKTestServer(period: 1024)
        let probe = try JACKClient(configuration: server.configuration(client: "probe"))
        try probe.activate(handler: ScriptedMIDIHandler())
        defer { probe.close() }
        for (index, (mode, signal)) in [(StartMode.shellBackground, SIGINT), (.file, SIGTERM), (.pipe, SIGHUP)].enumerated() {
            let stop = try Self.stopHandsAtADump(server: server, probe: probe, name: "dump\(index)", mode: mode, signal: signal)
            Self.expectCleanStop(stop.run, "hands, \(mode)", signal: signal)
            #expect(stop.noteOn != nil, "\(mode): \(stop.received)")
            if let noteOn = stop.noteOn, let noteOff = stop.noteOff, let allNotesOff = stop.allNotesOff {
                #expect(noteOff > noteOn && allNotesOff > noteOn, "\(stop.received)")
            } else {
                Issue.record("\(mode): no note-off or CC 123 at the dump: \(stop.received)\n\(stop.run.output)")
            }
        }
    }

    /// One run of ``handsStopsWithNoteOffsAtMidiDumpHoweverItWasStarted()``: the command's, and what the dump printed
    /// (messages).
    struct HandsStop {
        var run: LiveRun
        var received: [[UInt8]]

        /// Where the dump printed A4's first note-on, its last note-off and the last CC 123.
        var noteOn: Int? { Self.noteOn(in: received) }
        var noteOff: Int? { received.lastIndex { $0.count == 3 && ($0[0] == 0x80 || ($0[0] == 0x90 && $0[2] == 0)) && $0[1] == 69 } }
        var allNotesOff: Int? { received.lastIndex { $0 == [0xB0, 123, 0] } }

        static func noteOn(in received: [[UInt8]]) -> Int? {
            received.firstIndex { $0.count == 3 && $0[0] == 0x90 && $0[1] == 69 && $0[2] > 0 }
        }
    }

    /// One run of the test above: `prospero hands` into a new jack_midi_dump named `name`, a hand at A4 until the
    /// dump printed its note-on, then `signal`.
    static func stopHandsAtADump(server: JACKTestServer, probe: JACKClient, name: String, mode: StartMode,
                                 signal: Int32) throws -> HandsStop {
        let dump = try server.peer("jack_midi_dump", ["-a", name])
        let reader = DumpReader(dump)
        // The dump registers its port before it activates, and JACK refuses connections to an inactive client's
        // ports (the command then fails to connect and ends): wait until the probe's own (silent) MIDI output
        // connects to it.
        try waitUntil("\(name):input to accept a connection") {
            (try? probe.connect(probe.ports.midiOutput, to: "\(name):input")) != nil
        }
        let port = Self.freePort
        let sender = try UDPTestSender()
        let run = try Self.runLive(["hands", "--client-name", "StopHands", "--no-connect-audio", "--port", "\(port)",
                                    "--timeout", "600", "--midi-out", "\(name):input"],
                                   server: server.name, mode: mode, signal: signal, ready: "playback latency") {
            for _ in 0..<3 {
                sender.send(Self.handMessage(height: 9.5 / 11), port: port)
                usleep(30_000)
            }
            // The signal comes once the note sounds (the dump printed its note-on).
            _ = try? waitUntil("A4 at \(name)") {
                HandsStop.noteOn(in: Self.parseDump(reader.current()).map(\.bytes)) != nil
            }
        }
        // The note-off left in prospero's last period; jack_midi_dump prints (and flushes) it from one of its next
        // periods, later still on a busy machine: its lines are read as they come, and the dump is stopped once
        // CC 123 is there (or when the wait ends, and the test fails with what it got).
        _ = try? waitUntil("CC 123 at \(name)") {
            Self.parseDump(reader.current()).contains { $0.bytes == [0xB0, 123, 0] }
        }
        return HandsStop(run: run, received: Self.parseDump(reader.stop()).map(\.bytes))
    }

    /// `/prospero/hand 0 right 0.95` + 21 landmarks of an open right hand whose palm centre is at
    /// `height` (0 bottom … 1 top) and x 0.4 (as the python sender of the hands test draws it).
    static func handMessage(height: Double) -> [UInt8] {
        let cx = 0.4, cy = 1 - height
        var p = [(Double, Double)](repeating: (0, 0), count: 21)
        p[0] = (cx, cy + 0.06)
        for (f, dx) in [(1, -0.045), (2, -0.015), (3, 0.015), (4, 0.045)] {
            let m = 1 + 4 * f
            p[m] = (cx + dx, cy - 0.015); p[m + 1] = (cx + dx, cy - 0.045)
            p[m + 2] = (cx + dx, cy - 0.06); p[m + 3] = (cx + dx, cy - 0.085)
        }
        p[1] = (cx - 0.03, cy + 0.04); p[2] = (cx - 0.05, cy + 0.02); p[3] = (cx - 0.07, cy); p[4] = (cx - 0.11, cy - 0.01)
        var arguments: [OSCArgument] = [.int32(0), .string("right"), .float32(0.95)]
        for (x, y) in p { arguments += [.float32(Float(x)), .float32(Float(y)), .float32(0)] }
        return try! OSCEncoder.encode(OSCMessage("/prospero/hand", arguments))
    }
}
