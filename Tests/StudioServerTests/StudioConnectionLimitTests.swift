import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// The connection limits against a running `prospero studio`, attacked over loopback by `Browser/studio_attacks.py`
/// (python3 and websocket-client): malformed requests answered 400, the per-address cap, silent, slowloris and idle
/// connections cut by their timeouts, a WebSocket that never says hello closed, a flood before hello rate-limited
/// while another client is answered, a listener that stops reading disconnected with memory bounded, and after it
/// all a normal client served with descriptors and memory back at their baseline; under `--tls`, a client that does
/// not read cannot hold the stop. The timeouts are set short (1–2 s) so that each is seen; the probe's waits are
/// bounds for a busy machine, not figures.
@Suite("Studio connection limits", .serialized)
struct StudioConnectionLimitTests {
    static var available: Bool { TestPeers.executable("python3") != nil }
    static let script = StudioBrowserTests.browser.appendingPathComponent("studio_attacks.py").path

    @Test("attacks over plain HTTP: each cut as its limit says, a normal client served throughout, descriptors and memory back after",
          .enabled(if: TestPeers.enabled(available)))
    func plainAttacks() async throws {
        let (process, log, url) = try StudioCommandTests.start([
            "--port", "0", "--osc-port", "0", "--audio", "browser", "--no-settings",
            "--header-timeout", "1", "--idle-timeout", "2", "--write-timeout", "2", "--max-connections-per-address", "16"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = Int(url.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber })!
        let result = try await TestPeers.run("python3", [Self.script, "plain", String(port), String(process.processIdentifier)], timeout: 300)
        #expect(result.status == 0, "studio_attacks.py plain: \(result.output)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(text)")
        // The stop's census names what was cut: the slow listener for not reading, the silent ones for their timeouts.
        func count(_ what: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("studio: connections:") }),
                  let range = line.range(of: " " + what) else { return 0 }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "") ?? 0
        }
        #expect(count("refused (their address full)") >= 1 && count("cut (not reading)") >= 1 && count("cut (idle or too slow)") >= 16, "\(text)")
    }

    @Test("under --tls a client that does not read cannot hold the stop: SIGINT ends the studio, exit 0",
          .enabled(if: TestPeers.enabled(available && TestPeers.executable("openssl") != nil)))
    func tlsStop() async throws {
        let (process, log, port, work) = try await StudioTLSAttackTests.startTLSStudio()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: work)
        }
        let result = try await TestPeers.run("python3", [Self.script, "tls", String(port), String(process.processIdentifier)], timeout: 120)
        #expect(result.status == 0, "studio_attacks.py tls: \(result.output)")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}
