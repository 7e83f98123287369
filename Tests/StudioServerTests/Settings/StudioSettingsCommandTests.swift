import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `prospero studio` and the settings file, as a user runs it: it starts from the file's settings and
/// writes the file a second after a control changes (XDG_CONFIG_HOME in a temporary directory).
@Suite("prospero studio with a settings file", .serialized, .ownThread)
struct StudioSettingsCommandTests {
    @Test("the file's tempo shows in Hecate's state; a changed tempo is saved a moment later")
    func readsAndSaves() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-studio-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("prospero/settings.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"version":1,"hecate":{"bpm":111,"key":"E"}}"#.write(to: file, atomically: true, encoding: .utf8)
        var environment = StudioCommandTests.environment(token: nil)
        environment["XDG_CONFIG_HOME"] = root.path
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none"], environment: environment)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let output = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(output().contains("studio: settings in \(file.path)"), "\(output())")
        let port = Int(url.split(separator: ":").last!.split(separator: "/").first!)!
        let socket = try RawClient(port: port)
        #expect(try socket.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)").status == 101)
        socket.sendText(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
        socket.sendText(#"{"type":"select","instrument":"hecate"}"#)
        let state = socket.readJSON { ($0["type"] as? String) == "state" && ($0["instrument"] as? String) == "hecate" }
        let hecate = state?["state"] as? [String: Any]
        #expect(hecate?["bpm"] as? Double == 111 && hecate?["key"] as? String == "E", "\(state ?? [:])")
        socket.sendText(#"{"type":"set","path":"hecate.bpm","value":123}"#)
        // Written once the settings stood still for the saver's delay (ProsperoSettingsFileTests: the rule on given times).
        var saved = ""
        try Eventually.holds("the tempo saved: \(saved)", poll: 0.05) {
            saved = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return saved.contains(#""bpm":123"#)
        }
        #expect(saved.contains(#""key":"E""#), "\(saved)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output())")
    }
}
