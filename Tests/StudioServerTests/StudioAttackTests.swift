import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// The probe suite of issue 53: each attack against a real `prospero studio` on loopback, started for that scenario
/// with the limits it tests set short, attacked by `Probes/studio_probe.py` (python3; pyOpenSSL for the TLS 1.2
/// renegotiation). The probe judges outcomes only: the studio alive and a normal client (the page, then a WebSocket's
/// hello welcomed) served during and after the attack, what the attack holds closed as its limit says, and the
/// studio's descriptors and resident memory back near their baseline after; its waits are bounds for a busy machine,
/// never figures. The token reaches the studio through its environment and the probe through a file, never a command line.
@Suite("Studio attack probes", .serialized, .ownThread)
struct StudioAttackTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Probes/studio_probe.py").path
    static var available: Bool { TestPeers.executable("python3") != nil && TestPeers.executable("openssl") != nil }

    /// A studio started for one scenario: its process, log, port, and the probe's arguments that name it.
    struct Studio {
        let process: Process
        let log: URL
        let port: Int
        let probeArguments: [String]

        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    /// Starts `prospero studio` with `options` (shared with the probe: the limits it was given) on a free loopback
    /// port, `--tls` with a certificate of the test's own authority when `tls`, a chosen token in its environment.
    static func start(_ options: [String], tls: Bool, audio: String = "none", in work: URL) async throws -> Studio {
        let token = "probe-\(UUID().uuidString.prefix(12))"
        let tokenFile = work.appendingPathComponent("token")
        try (token + "\n").write(to: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile.path, 0o600)
        var arguments = ["--port", "0", "--osc-port", "0", "--audio", audio, "--no-settings"] + options
        var probeArguments = ["--token-file", tokenFile.path] + options
        if tls {
            let (ca, certificate, key) = try await StudioTrustTests.makeCertificates(in: work, addresses: ["127.0.0.1"])
            arguments += ["--tls", certificate.path, key.path]
            probeArguments += ["--tls-ca", ca.path]
        }
        let (process, log, url) = try StudioCommandTests.start(arguments, environment: StudioCommandTests.environment(token: token))
        let scheme = tls ? "https://127.0.0.1:" : "http://127.0.0.1:"
        guard url.hasPrefix(scheme), let port = Int(url.dropFirst(scheme.count).prefix { $0.isNumber }) else {
            kill(process.processIdentifier, SIGKILL)
            throw RawClient.Failure("the studio printed \(url)")
        }
        return Studio(process: process, log: log, port: port,
                      probeArguments: probeArguments + ["--port", String(port), "--pid", String(process.processIdentifier)])
    }

    /// One scenario: a studio of its own, the probe against it (exit 0 expected, its output in the message), then the
    /// studio alive and stopped by SIGINT with exit 0 (for `tls-shutdown` the probe sends the SIGINT itself).
    static func probe(_ scenario: String, _ options: [String] = [], tls: Bool = false, audio: String = "none",
                      sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studio-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let studio = try await start(options, tls: tls, audio: audio, in: work)
        defer { if studio.process.isRunning { kill(studio.process.processIdentifier, SIGKILL) } }
        let result = try await TestPeers.run("python3", [Self.script, scenario] + studio.probeArguments, timeout: 240)
        #expect(result.status == 0, "studio_probe.py \(scenario):\n\(result.output)\nthe studio's output:\n\(studio.output)",
                sourceLocation: sourceLocation)
        for line in result.output.split(separator: "\n") where line.hasPrefix("figure:") { print("studio_probe.py \(scenario): \(line)") }
        if scenario != "tls-shutdown" {
            #expect(studio.process.isRunning, "the studio stopped during \(scenario):\n\(studio.output)", sourceLocation: sourceLocation)
            kill(studio.process.processIdentifier, SIGINT)
        }
        studio.process.waitUntilExit()
        #expect(studio.process.terminationReason == .exit && studio.process.terminationStatus == 0,
                "the studio's exit after \(scenario): \(studio.process.terminationStatus)\n\(studio.output)", sourceLocation: sourceLocation)
    }

    @Test("TLS 1.2 renegotiation ClientHello + close_notify in one segment, then a reset, and its mutations: the studio keeps serving",
          .enabled(if: TestPeers.enabled(available && TestPeers.python(module: "OpenSSL"))))
    func tlsRenegotiation() async throws {
        try TestPeers.require(TestPeers.python(module: "OpenSSL"), "pyOpenSSL (pip install pyopenssl)")
        try await Self.probe("tls-renegotiation", tls: true)
    }

    @Test("the per-address cap: all of 127.0.0.0/8 one address, the connection past the cap closed on arrival, served again after",
          .enabled(if: TestPeers.enabled(available)))
    func perAddressCap() async throws {
        try await Self.probe("caps", ["--max-connections", "64", "--max-connections-per-address", "8", "--header-timeout", "10"])
    }

    @Test("the total cap: the connection past it closed on arrival, served again after", .enabled(if: TestPeers.enabled(available)))
    func totalCap() async throws {
        try await Self.probe("caps", ["--max-connections", "8", "--max-connections-per-address", "64", "--header-timeout", "10"])
    }

    @Test("header and idle timeouts: silent, slowloris, idle keep-alive and hello-less WebSocket connections closed",
          .enabled(if: TestPeers.enabled(available)))
    func timeouts() async throws {
        try await Self.probe("timeouts", ["--header-timeout", "1", "--idle-timeout", "2"])
    }

    @Test("under --tls: half-open handshakes cut by the handshake timeout, and the header and idle timeouts",
          .enabled(if: TestPeers.enabled(available)))
    func timeoutsOverTLS() async throws {
        try await Self.probe("timeouts", ["--handshake-timeout", "1", "--header-timeout", "1", "--idle-timeout", "2"], tls: true)
    }

    @Test("a WebSocket subscribed to everything that stops reading is disconnected by the write timeout, memory bounded",
          .enabled(if: TestPeers.enabled(available)))
    func slowReader() async throws {
        try await Self.probe("slow-reader", ["--write-timeout", "2"], audio: "browser")
    }

    @Test("under --tls a WebSocket that stops reading is disconnected by the write timeout", .enabled(if: TestPeers.enabled(available)))
    func slowReaderOverTLS() async throws {
        try await Self.probe("slow-reader", ["--write-timeout", "2"], tls: true, audio: "browser")
    }

    @Test("under --tls a client that stops reading mid-download cannot hold the stop: SIGINT ends the studio, exit 0",
          .enabled(if: TestPeers.enabled(available)))
    func shutdownUnderTLS() async throws {
        try await Self.probe("tls-shutdown", tls: true)
    }

    @Test("clock and ping floods before hello are rate-limited; another client's ping is answered meanwhile",
          .enabled(if: TestPeers.enabled(available)))
    func floodBeforeHello() async throws {
        try await Self.probe("flood")
    }

    @Test("malformed requests (a NUL byte in a header, a target or headers over 80 KiB): 400, then closed",
          .enabled(if: TestPeers.enabled(available)), arguments: [false, true])
    func malformedRequests(tls: Bool) async throws {
        try await Self.probe("malformed", tls: tls)
    }
}
