import Foundation
import ProsperoTestSupport
import Testing

/// The hands and touch screen in real headless Chromium against `prospero studio --audio jack` on a dummy
/// JACK server (a child process, so libjack never loads into this test process), with jack_midi_dump on
/// its midi_out and python-osc sending a hand: Browser/hands_studio.py. Screenshot: hands.png (in `StudioBrowserTests.screenshots`).
@Suite("Hands screen in Chromium", .serialized, .takingTurns())
struct HandsBrowserTests {
    static let browser = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser")

    static var available: Bool {
        ["chromium", "chromedriver", "jackd", "jack_lsp", "jack_midi_dump"].allSatisfy { TestPeers.executable($0) != nil }
            && TestPeers.python(module: "selenium") && TestPeers.python(module: "pythonosc") && TestPeers.prospero != nil
    }

    @Test("pointer events on the pad sound notes (frame, synth snapshot, MIDI at jack_midi_dump); lift, pointercancel and a vanished page end them; four slots; OSC hand skeleton; screenshot",
          .enabled(if: TestPeers.enabled(available)))
    func padPlaysThroughJACK() async throws {
        for tool in ["chromium", "chromedriver"] { _ = try TestPeers.require(TestPeers.executable(tool), "\(tool) (apt-get install chromium chromium-driver)") }
        for tool in ["jackd", "jack_lsp", "jack_midi_dump"] { _ = try TestPeers.require(TestPeers.executable(tool), "\(tool) (apt-get install jackd2)") }
        try TestPeers.require(TestPeers.python(module: "selenium"), "selenium (pip install selenium)")
        try TestPeers.require(TestPeers.python(module: "pythonosc"), "python-osc (pip install python-osc)")
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        let result = try await TestPeers.run("python3", [Self.browser.appendingPathComponent("hands_studio.py").path, prospero.path,
                                                         StudioBrowserTests.screenshots.appendingPathComponent("hands.png").path], timeout: 300)
        #expect(result.status == 0, "hands_studio.py: \(result.output)")
    }
}
