import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `prospero studio` and the settings file, as a user runs it: it starts from the file's settings and
/// writes the file a second after a control changes (XDG_CONFIG_HOME in a temporary directory).
@Suite("prospero studio with a settings file", .serialized)
struct StudioSettingsCommandTests {
    @Test("the file's tempo shows in Hecate's state; a changed tempo is saved about a second later")
    func readsAndSaves() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-studio-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("prospero/settings.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"version":1,"hecate":{"bpm":111,"key":"E"}}"#.write(to: file, atomically: true, encoding: .utf8)
        let log = root.appendingPathComponent("studio.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = prospero
        process.arguments = ["studio", "--port", "0", "--osc-port", "0", "--audio", "none"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = root.path
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var url = ""
        for _ in 0..<400 where url.isEmpty {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            url = text.split(separator: "\n").first { $0.hasPrefix("studio: http") }.map { String($0.dropFirst("studio: ".count)) } ?? ""
            if url.isEmpty { usleep(50_000) }
        }
        let output = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(!url.isEmpty, "\(output())")
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
        var saved = ""
        for _ in 0..<100 where !saved.contains(#""bpm":123"#) {
            usleep(50_000)
            saved = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        }
        #expect(saved.contains(#""bpm":123"#) && saved.contains(#""key":"E""#), "\(saved)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output())")
    }
}
