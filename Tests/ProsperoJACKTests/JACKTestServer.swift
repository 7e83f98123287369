import Foundation
import Glibc
import ProsperoTestSupport
import ProsperoJACK
import Synchronization
import Testing

/// Test peers: the tools from Debian's jackd2, through the one peer gate (`TestPeers`). A test that
/// needs one is skipped when it is missing, unless PROSPERO_REQUIRE_PEERS=1, in which case it fails.
enum Peers {
    static var required: Bool { TestPeers.required }

    static func path(of tool: String) -> String? { TestPeers.executable(tool) }

    /// Whether a test needing `tools` should run (all present, or peers required).
    static func runnable(_ tools: String...) -> Bool {
        TestPeers.enabled(tools.allSatisfy { path(of: $0) != nil })
    }
}

struct PeerMissing: Error, CustomStringConvertible {
    var tool: String
    var description: String { "test peer \(tool) is not installed (apt install jackd2)" }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// How long a test waits for an outcome by default: the suite's one bound (``Eventually/bound``) for a busy 2-core
/// machine (a build beside the tests holds a peer's start or a command's reply back for seconds), not a figure; a
/// passing wait returns at once.
let generousWait: Duration = .seconds(Eventually.bound)

/// Polls `condition` every 5 ms for at most `timeout`; every wait in these tests is bounded.
func waitUntil(_ what: String, timeout: Duration = generousWait, _ condition: () -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        usleep(5_000)
    }
}

private let serverCounter = Atomic<Int>(0)
/// Serialises server starts (see ``JACKTestServer/init(sampleRate:period:named:)``).
private let startLock = NSLock()
/// Whether this process has freed the registry slots killed test servers left (once, before its first server).
private let registryRepaired = Atomic<Bool>(false)

/// A child process started by a test and stopped by its process id.
final class PeerProcess {
    let process = Process()
    let output = Pipe()
    let name: String

    /// - Parameter errorsToo: standard error into ``output`` too (jack_rec says its overruns only there).
    init(_ tool: String, _ arguments: [String], server: String?, errorsToo: Bool = false) throws {
        guard let path = Peers.path(of: tool) else { throw PeerMissing(tool: tool) }
        name = tool
        if let setpriv = Peers.path(of: "setpriv") {
            // The peer gets SIGTERM if this test process dies, so a crashed run leaves no jackd
            // behind holding a slot of JACK's 8-server registry (setpriv execs: same pid).
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "TERM", path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        if let server { environment["JACK_DEFAULT_SERVER"] = server }
        environment["JACK_NO_START_SERVER"] = "1"
        process.environment = environment
        process.standardOutput = output
        process.standardError = errorsToo ? output : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.runWithStopSignalsUnblocked()
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` and waits (bounded) for the process to end; SIGKILL if it will not.
    ///
    /// SIGINT by default: jackd2's example clients close their JACK client on SIGINT but die on SIGTERM
    /// (and `jack_midi_dump` then loses what it had not printed yet).
    func stop(signal: Int32 = SIGINT, timeout: Duration = .seconds(3)) {
        guard process.isRunning else { return }
        kill(pid, signal)
        if (try? waitUntil("\(name) to exit", timeout: timeout, { !process.isRunning })) == nil {
            kill(pid, SIGKILL)
            _ = try? waitUntil("\(name) to die", timeout: .seconds(2)) { !process.isRunning }
        }
    }

    /// Everything the process wrote to standard output; call after it ended.
    func readOutput() -> String {
        String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit { stop(signal: SIGKILL) }
}

/// `jackd --no-realtime --sync -t 10000 -n <unique> -d dummy`, started for one test and stopped by pid.
///
/// Synchronous (`--sync`): each cycle waits for every client, up to the client timeout, before the next begins.
/// In jackd's default asynchronous mode a client still running when the next cycle starts misses that cycle,
/// and the MIDI and audio in it are lost; on a busy machine (non-realtime threads, a build beside the tests) that
/// happened several times a minute. Here a late client delays the cycle instead: nothing is lost, and every
/// client counts the same frames (the server still reports an xrun for a cycle that ended late). Ten seconds of
/// client timeout: longer than a busy machine holds a thread back, short enough that a client stopped by a crash
/// holds the graph once, not for good. A test of what an xrun itself does asks for the asynchronous mode.
final class JACKTestServer {
    /// The options before `-d dummy`, with the server's name.
    static func serverArguments(name: String, synchronous: Bool = true) -> [String] {
        ["--no-realtime"] + (synchronous ? ["--sync", "--timeout", "10000"] : []) + ["-n", name]
    }

    let name: String
    let jackd: PeerProcess

    /// Starts a server named `name`, by default a new unique one.
    ///
    /// Servers start one at a time in this process: jackd 1.9 can exit silently when two servers register
    /// in its shared-memory registry at the same moment (seen when suites run in parallel), so starts are
    /// serialised, and a server that still exits at startup is tried again (a fresh name) up to three times.
    /// - Parameter synchronous: `--sync` (the default); false for jackd's own mode, where a client that overruns
    ///   its period makes the server skip it (an xrun in that cycle).
    init(sampleRate: Int = 48_000, period: Int = 256, named: String? = nil, synchronous: Bool = true) throws {
        startLock.lock()
        defer { startLock.unlock() }
        if !registryRepaired.exchange(true, ordering: .relaxed) {
            let freed = JACKServerRegistry.reclaimStale()
            if freed > 0 { print("JACK test servers: freed \(freed) registry slot(s) that killed servers had left") }
        }
        var attempt = 0
        while true {
            attempt += 1
            let n = serverCounter.add(1, ordering: .relaxed).newValue
            let name = named ?? "prospero-test-\(getpid())-\(n)"
            let jackd = try PeerProcess(
                "jackd",
                Self.serverArguments(name: name, synchronous: synchronous) + ["-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"],
                server: nil
            )
            // Well under a second on a quiet machine; a build beside the tests can hold it back for many.
            do {
                try waitUntil("jackd \(name) to accept clients", timeout: .seconds(60)) {
                    guard jackd.process.isRunning else { return true }
                    return (try? JACKServerStatus.query(serverName: name, clientName: "probe")) != nil
                }
            } catch {
                // Stopped so that it unregisters: killed (by PeerProcess's deinit) it would keep its registry slot.
                Self.stopCleanly(jackd, name: name)
                throw error
            }
            if jackd.process.isRunning {
                self.name = name
                self.jackd = jackd
                return
            }
            let output = jackd.readOutput()
            if output.contains("Too many servers") && JACKServerRegistry.reclaimStale() > 0 { continue }
            if attempt >= 3 || named != nil { throw ServerFailedToStart(name: name, output: output) }
            usleep(200_000)
        }
    }

    /// Stops `jackd` with SIGINT (it unregisters); when it had to be killed, frees the slot it kept.
    private static func stopCleanly(_ jackd: PeerProcess, name: String) {
        jackd.stop(signal: SIGINT, timeout: .seconds(10))
        if jackd.process.terminationReason == .uncaughtSignal && jackd.process.terminationStatus == SIGKILL {
            JACKServerRegistry.reclaim(name)
        }
    }

    struct ServerFailedToStart: Error, CustomStringConvertible {
        var name: String
        var output: String
        var description: String { "jackd \(name) exited at startup:\n\(output)" }
    }

    /// Kills the server with SIGKILL, as a crash would.
    ///
    /// A killed jackd leaves its entry in JACK's shared server registry (8 slots per machine),
    /// and only a server of the same name reclaims it; `reclaimRegistrySlot()` does that.
    func crash() {
        jackd.stop(signal: SIGKILL)
        crashed = true
    }

    private var crashed = false

    /// Starts and cleanly stops a server of the same name, freeing the registry slot a crash left.
    func reclaimRegistrySlot() {
        guard crashed, !jackd.process.isRunning else { return }
        crashed = false
        JACKServerRegistry.reclaim(name)
    }

    var configuration: JACKClient.Configuration { configuration(client: "Prospero") }

    func configuration(client: String) -> JACKClient.Configuration {
        JACKClient.Configuration(clientName: client, serverName: name)
    }

    /// Starts a jackd2 example client on this server.
    func peer(_ tool: String, _ arguments: [String]) throws -> PeerProcess {
        try PeerProcess(tool, arguments, server: name)
    }

    /// `jack_rec` recording `ports` for `seconds` into `file` (24-bit), its ring buffer holding the whole take: its
    /// disk thread, late on a busy machine, cannot overrun it (an overrun writes part of a sample and shifts every
    /// later byte: garbage, up to full scale, in the file). Its output (``PeerProcess/readOutput()``) carries its
    /// standard error, where it reports overruns.
    func recorder(file: String, seconds: Int, ports: [String]) throws -> PeerProcess {
        try PeerProcess("jack_rec", ["-f", file, "-d", "\(seconds)", "-b", "24", "-B", "\((seconds + 2) * 48_000)"] + ports,
                        server: name, errorsToo: true)
    }

    /// Stops the server with SIGINT (it unregisters itself); reclaims its slot if it had to be killed; then
    /// removes the semaphores its clients left in /dev/shm (a client killed by a test never unlinks its own,
    /// and they pile up across runs).
    func stop() {
        guard jackd.process.isRunning else { return }
        Self.stopCleanly(jackd, name: name)
        let shm = "/dev/shm"
        for file in (try? FileManager.default.contentsOfDirectory(atPath: shm)) ?? []
        where file.hasPrefix("jack_sem.") && file.contains("_\(name)_") {
            try? FileManager.default.removeItem(atPath: shm + "/" + file)
        }
    }

    deinit { stop() }
}
