import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// Browser audio in real headless Chromium, started as a user starts it: `prospero studio --audio browser`
/// (Browser/core_audio_stream.py). What a listener gets is checked as outcomes; the worklet's drift correction and
/// jitter buffer run on simulated blocks, and the page's reports and arrival gaps on a fake clock, in the same script.
@Suite("Studio browser audio in Chromium", .serialized, .takingTurns())
struct StudioBrowserAudioBrowserTests {
    @Test("the AudioWorklet plays the stream's tone, the indicator shows it; a stall shows a dropout and the tone comes back; drift, groups, jitter and a stall on simulated blocks; reports and gaps on a fake clock",
          .enabled(if: TestPeers.enabled(StudioBrowserTests.available)))
    func stream() async throws {
        try StudioBrowserTests.requirePeers()
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "browser", "--no-qr"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let path = StudioBrowserTests.browser.appendingPathComponent("core_audio_stream.py").path
        let result = try await TestPeers.run("python3", [path, url], timeout: 300)
        #expect(result.status == 0, "core_audio_stream.py: \(result.output)")
        for line in result.output.split(separator: "\n") where line.hasPrefix("drift") || line.hasPrefix("stall") || line.hasPrefix("page clock") {
            print(line)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(printed.contains("browser audio: 256-frame blocks at 48000 Hz"), "\(printed)")
    }
}
