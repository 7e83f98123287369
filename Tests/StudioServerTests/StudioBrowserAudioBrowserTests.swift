import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// Browser audio in real headless Chromium, started as a user starts it: `prospero studio --audio browser`.
@Suite("Studio browser audio in Chromium", .serialized)
struct StudioBrowserAudioBrowserTests {
    @Test("the AudioWorklet plays the stream for 20 s without dropouts; latency shown; a stall shows a dropout and recovers",
          .enabled(if: TestPeers.enabled(StudioBrowserTests.available)))
    func stream() async throws {
        try StudioBrowserTests.requirePeers()
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "browser", "--no-qr"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let path = StudioBrowserTests.browser.appendingPathComponent("core_audio_stream.py").path
        let result = try await TestPeers.run("python3", [path, url], timeout: 90)
        #expect(result.status == 0, "core_audio_stream.py: \(result.output)")
        for line in result.output.split(separator: "\n") where line.hasPrefix("steady") || line.hasPrefix("drift") { print(line) }
        // The README's figure: the page's latency (40 ms buffer + the browser's output latency) stays under 150 ms.
        let line = result.output.split(separator: "\n").first { $0.hasPrefix("latency_ms=") }
        let latency = line.flatMap { Double($0.dropFirst("latency_ms=".count)) }
        #expect(latency.map { $0 < 150 } == true, "latency: \(result.output)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(printed.contains("browser audio: 256-frame blocks at 48000 Hz"), "\(printed)")
    }
}
