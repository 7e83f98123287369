import Foundation
import Glibc
import ProsperoTestSupport
import Studio
import Testing

/// The studio's pages in real headless Chromium (Debian's chromium and chromedriver, Selenium from PyPI),
/// driven by the Python scripts in Browser/ through the peer gate. Screenshots go to ``screenshots``.
@Suite("Studio in Chromium", .serialized, .takingTurns())
struct StudioBrowserTests {
    static let browser = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser")
    /// Where every browser test writes its screenshots: a temporary directory of this test process, so a
    /// run never touches the tracked docs/studio/*.png; scripts/docs-screenshots regenerates those on
    /// purpose by naming the directory in PROSPERO_SCREENSHOTS_DIR.
    static let screenshots: URL = {
        if let directory = ProcessInfo.processInfo.environment["PROSPERO_SCREENSHOTS_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("prospero-screenshots-\(getpid())")
    }()

    static var available: Bool {
        TestPeers.executable("chromium") != nil && TestPeers.executable("chromedriver") != nil && TestPeers.python(module: "selenium")
    }

    static func requirePeers() throws {
        _ = try TestPeers.require(TestPeers.executable("chromium"), "chromium (apt-get install chromium)")
        _ = try TestPeers.require(TestPeers.executable("chromedriver"), "chromedriver (apt-get install chromium-driver)")
        try TestPeers.require(TestPeers.python(module: "selenium"), "selenium (pip install selenium)")
    }

    /// Runs `script` with `arguments`; fails the test with the script's output when it fails. `timeout`: a bound for a
    /// busy machine (the script's own waits end sooner), never a figure.
    static func run(_ script: String, _ arguments: [String], timeout: Double = 300) async throws {
        let path = browser.appendingPathComponent(script).path
        let result = try await TestPeers.run("python3", [path] + arguments, timeout: timeout)
        #expect(result.status == 0, "\(script): \(result.output)")
    }

    @Test("Home loads with no console errors, onboarding, instruments, audio, panels; screenshot", .enabled(if: TestPeers.enabled(available)))
    func home() async throws {
        try Self.requirePeers()
        // The real command, as a user starts it.
        let (process, _, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        try await Self.run("core_home.py", [url, Self.screenshots.appendingPathComponent("home.png").path])
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// The layout test's 390x844 states the README shows (`page-state`, as layout_phone.py names them).
    static let phoneShots = ["home-page", "hecate-hud", "hands-pad", "hisynth-rack", "vibe-play"]

    /// The README's name of a state's picture: the page's ("hecate-hud" → "hecate").
    static func phoneShotName(_ state: String) -> String { String(state.split(separator: "-").first ?? Substring(state)) }

    @Test("every page fits phones, tablets and a laptop: no sideways scroll, no control covered, 44 px touch targets, the audio bar over nothing",
          .enabled(if: TestPeers.enabled(available)))
    func phoneLayouts() async throws {
        try Self.requirePeers()
        // The real command with every instrument, and browser audio so that the audio bar shows on every page.
        let (process, _, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "browser", "--no-qr", "--no-settings"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("studio-layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        try await Self.run("layout_phone.py", [url, shots.path], timeout: 1800)
        print("studio layouts: the 390x844 screenshots are in \(shots.path)")
        // The docs' phone pictures, refreshed on purpose (scripts/docs-screenshots --phone): the chosen states
        // become docs/studio/phone-<name>.png; an ordinary run leaves them in the temporary directory only.
        if ProcessInfo.processInfo.environment["PROSPERO_SCREENSHOTS_DIR"] != nil {
            let chosen = ProcessInfo.processInfo.environment["PROSPERO_PHONE_SHOTS"].map { $0.split(separator: ",").map(String.init) }
                ?? Self.phoneShots
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            for state in chosen {
                let source = shots.appendingPathComponent("\(state).png")
                let name = Self.phoneShotName(state)
                let target = Self.screenshots.appendingPathComponent("phone-\(name).png")
                try #require(FileManager.default.fileExists(atPath: source.path), "the layout test made no \(state).png")
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("the test tone page loads with no console errors; its controls reach the session", .enabled(if: TestPeers.enabled(available)))
    func tonePage() async throws {
        try Self.requirePeers()
        let studio = try StudioTestServer()
        defer { studio.stop() }
        try await Self.run("core_tone.py", ["http://127.0.0.1:\(studio.port)/tone/"])
        let state = studio.session.withInstrument("tone") { $0.stateJSON() }
        #expect(state?["on"] == .bool(true) && state?["frequency"] == .number(1000) && state?["level"] == .number(-18))
        #expect(state?["touching"] == .bool(false))
    }

    @Test("every screen's help overlay opens from its button and the ? key, lists its controls, closes with Escape",
          .enabled(if: TestPeers.enabled(available)))
    func helpOverlays() async throws {
        try Self.requirePeers()
        let studio = try StudioTestServer(instruments: [StudioToneInstrument(), HecateStudioInstrument(), try HandsStudioInstrument()])
        defer { studio.stop() }
        try await Self.run("core_help.py", ["http://127.0.0.1:\(studio.port)/"])
    }

    @Test("a page that loses the server shows it and reconnects when the server is back", .enabled(if: TestPeers.enabled(available)))
    func reconnect() async throws {
        try Self.requirePeers()
        var studio = try StudioTestServer()
        let port = studio.port
        let control = FileManager.default.temporaryDirectory.appendingPathComponent("studio-reconnect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: control) }
        let script = Task { try await TestPeers.run("python3", [Self.browser.appendingPathComponent("core_reconnect.py").path,
                                                               "http://127.0.0.1:\(port)/", control.path], timeout: 300) }
        func waitFor(_ word: String) async throws {
            for _ in 0..<600 {
                if (try? String(contentsOf: control, encoding: .utf8)) == word { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("the page never said \(word)")
        }
        try await waitFor("stop")
        studio.stop()
        try "stopped".write(to: control, atomically: true, encoding: .utf8)
        try await waitFor("start")
        studio = try StudioTestServer { $0.port = port }
        defer { studio.stop() }
        try "started".write(to: control, atomically: true, encoding: .utf8)
        let result = try await script.value
        #expect(result.status == 0, "core_reconnect.py: \(result.output)")
    }
}
