import Foundation
import LiveHost
import ProsperoTestSupport
import StudioApp
import Testing

/// The studio's composition root run in this process (browser audio, free ports, a settings file of its own):
/// its services stop in order, and what each step promises holds once it returns.
@Suite("The studio app: one root, services stopped in order", .serialized)
struct StudioAppTests {
    @Test("on stop: the server stops accepting, the notes end, the settings are written, the sockets close, the input and audio end")
    func orderedStop() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studio-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("settings.json")
        var configuration = StudioConfiguration()
        configuration.port = 0
        configuration.oscPort = 0
        configuration.audio = .browser
        configuration.settingsPath = file.path
        configuration.noQR = true
        // The studio's tasks off the test runner's pool, which other suites' blocking tests fill.
        configuration.executor = DispatchTaskExecutor(label: "studio-app")
        let stop = LiveStop()
        let app = try StudioApp(configuration: configuration, stop: stop)
        let returned = LiveStop()
        let failure = FailureBox()
        let thread = Thread {
            do { try app.run() } catch { failure.set("\(error)") }
            returned.request(.requested)
        }
        thread.start()
        defer {
            stop.request(.requested)
            returned.wait(timeout: .seconds(Eventually.bound))
        }
        // Every blocking step (a socket's read, a wait) on a thread of its own: none holds one of the pool's threads.
        let port = try #require(await Self.blocking { app.waitUntilListening() })

        let socket = try await Self.blocking { try RawClient(port: port) }
        let upgrade = try await Self.blocking { try socket.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)").status }
        #expect(upgrade == 101)
        let changed = await Self.blocking { () -> (bpm: Double?, message: String) in
            socket.sendText(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
            socket.sendText(#"{"type":"select","instrument":"hecate"}"#)
            _ = socket.readJSON { ($0["type"] as? String) == "state" && ($0["instrument"] as? String) == "hecate" }
            socket.sendText(#"{"type":"set","path":"hecate.bpm","value":123}"#)
            let changed = socket.readJSON { ($0["type"] as? String) == "changed" || ($0["type"] as? String) == "error" }
            return ((changed?["changes"] as? [String: Any])?["bpm"] as? Double, "\(changed ?? [:])")
        }
        #expect(changed.bpm == 123, "\(changed.message)")

        // The change is written by the time the stop returns (the saver's own delay and its flush at the end are
        // ProsperoSettingsFileTests', on given times).
        stop.request(.requested)
        let ended = await Self.blocking { returned.wait(timeout: .seconds(Eventually.bound)) != nil }
        #expect(ended, "the studio did not stop")
        #expect(failure.message == nil, "\(failure.message ?? "")")
        #expect(app.stopOrder == ["stop accepting", "notes", "settings", "server", "cameras", "input", "browser audio"], "\(app.stopOrder)")
        let saved = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(saved.contains(#""bpm":123"#), "settings not flushed at the stop: \(saved)")
        // The server closed the socket (what it had sent, then the end) and takes no connection any more.
        let left = await Self.blocking { () -> Int in
            var left = 0
            while socket.readFrame() != nil && left < 1000 { left += 1 }
            return left
        }
        #expect(left < 1000)
        let refused = await Self.blocking { (try? RawClient(port: port).request("/", headers: [("Host", "127.0.0.1:\(port)")])) == nil }
        #expect(refused, "the stopped studio still answers on port \(port)")
    }

    /// `body`'s result, run on a thread of its own.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in Thread { done.resume(with: Result { try body() }) }.start() }
    }

    static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in Thread { done.resume(returning: body()) }.start() }
    }

    @Test("a configuration that cannot be is refused before anything runs, naming the option")
    func refusesBadConfiguration() {
        var configuration = StudioConfiguration()
        configuration.browserGroup = 17
        #expect(throws: StudioAppError.self) { try StudioApp(configuration: configuration, stop: LiveStop()) }
        configuration = StudioConfiguration()
        configuration.hecateMIDIChannel = 1
        configuration.audio = .none
        do {
            try configuration.validate()
            Issue.record("--hecate-midi with --audio none was accepted")
        } catch {
            #expect(error.kind == .invalid && error.message.contains("--hecate-midi"), "\(error)")
        }
    }

    final class FailureBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?
        func set(_ m: String) { lock.withLock { stored = m } }
        var message: String? { lock.withLock { stored } }
    }
}
