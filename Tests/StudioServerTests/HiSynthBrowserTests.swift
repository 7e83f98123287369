import Foundation
import ProsperoTestSupport
import Testing

/// HiSynth's rack in real headless Chromium against `prospero studio --audio jack` on a dummy JACK server
/// (a child process, so libjack never loads into this test process), jack_midiseq playing into midi_in:
/// Browser/hisynth_rack.py. Screenshot: hisynth.png (in `StudioBrowserTests.screenshots`).
@Suite("HiSynth rack in Chromium", .serialized, .takingTurns())
struct HiSynthBrowserTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = here.deletingLastPathComponent().deletingLastPathComponent()
    static let browser = here.appendingPathComponent("Browser")

    static var available: Bool {
        ["chromium", "chromedriver", "jackd", "jack_lsp", "jack_connect", "jack_midiseq"].allSatisfy { TestPeers.executable($0) != nil }
            && TestPeers.python(module: "selenium") && TestPeers.python(module: "mido") && TestPeers.prospero != nil
    }

    @Test("the rack loads clean; walkthrough; a factory import reaches the engine; the LP cutoff moves the spectrum's −3 dB point; computer keys and fingers play; the roll shows the song's notes at their times; JACK MIDI plays; screenshot",
          .enabled(if: TestPeers.enabled(available)))
    func rack() async throws {
        for tool in ["chromium", "chromedriver"] { _ = try TestPeers.require(TestPeers.executable(tool), "\(tool) (apt-get install chromium chromium-driver)") }
        for tool in ["jackd", "jack_lsp", "jack_connect", "jack_midiseq"] { _ = try TestPeers.require(TestPeers.executable(tool), "\(tool) (apt-get install jackd2)") }
        try TestPeers.require(TestPeers.python(module: "selenium"), "selenium (pip install selenium)")
        try TestPeers.require(TestPeers.python(module: "mido"), "mido (pip install mido)")
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        let result = try await TestPeers.run("python3", [
            Self.browser.appendingPathComponent("hisynth_rack.py").path, prospero.path,
            StudioBrowserTests.screenshots.appendingPathComponent("hisynth.png").path,
            Self.root.appendingPathComponent("Tests/HiSynthTests/Fixtures/hisynth-factory.jsonl").path,
            Self.root.appendingPathComponent("examples/hisynth/prospero-tempo-study.mid").path,
        ], timeout: 600)
        #expect(result.status == 0, "hisynth_rack.py: \(result.output)")
    }
}
