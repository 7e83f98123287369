import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero hecate` with a settings file, as a user runs it: the file's settings apply, options on
/// the command line override them, `--save-settings` writes what was in effect, and a broken file
/// gives the defaults with a warning (the file kept aside). XDG_CONFIG_HOME points at a temporary
/// directory, so the user's own settings never take part.
@Suite("prospero hecate with a settings file", .serialized, .ownThread)
struct HecateSettingsCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// A temporary XDG_CONFIG_HOME, a 2-second recording (the first 60 frames of the demo
    /// performance: the drone sounds) and an output path.
    final class Sandbox {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-xdg-\(UUID().uuidString)")
        var config: URL { root.appendingPathComponent("prospero/settings.json") }
        var recording: URL { root.appendingPathComponent("face.jsonl") }
        var wav: URL { root.appendingPathComponent("x.wav") }

        init() throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("prospero"), withIntermediateDirectories: true)
            let lines = try String(contentsOf: HecatePerformanceTests.performanceFile, encoding: .utf8).split(separator: "\n")
            try (lines.prefix(61).joined(separator: "\n") + "\n").write(to: recording, atomically: true, encoding: .utf8)
        }

        func write(settings: String) throws { try settings.write(to: config, atomically: true, encoding: .utf8) }

        func run(_ extra: [String]) throws -> Run {
            let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
            let process = Process()
            process.executableURL = prospero
            process.arguments = ["hecate", "--input", recording.path, "--output", wav.path] + extra
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = root.path
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let error = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                       error: String(decoding: error, as: UTF8.self))
        }

        func peak() throws -> Float {
            let wav = try WAVAudio(decoding: Array(try Data(contentsOf: self.wav)))
            return wav.channels.flatMap { $0 }.map(abs).max() ?? 0
        }

        func saved() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: config)) as? [String: Any]
            return try #require(object)
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test("the file's pack, play-along and Bluetooth route apply (−14 dBFS); options override; --save-settings keeps both")
    func fileThenOptions() throws {
        let box = try Sandbox()
        try box.write(settings: #"{"version":1,"hecate":{"pack":"coven","key":"D","bpm":120,"playAlong":true,"route":"bluetooth","reverb":0.1}}"#)
        let fromFile = try box.run([])
        #expect(fromFile.status == 0, "\(fromFile.error)")
        #expect(fromFile.output.contains("pack Coven"), "\(fromFile.output)")
        // Play-along over Bluetooth from the file: the limiter holds −14 dBFS (plus 24-bit rounding).
        let ceiling = Float(pow(10, -14.0 / 20))
        let peak = try box.peak()
        #expect(peak <= ceiling * 1.0001 && peak > 0.01, "peak \(peak)")

        // Without --save-settings the file is not touched.
        #expect(try Data(contentsOf: box.config) == Data(#"{"version":1,"hecate":{"pack":"coven","key":"D","bpm":120,"playAlong":true,"route":"bluetooth","reverb":0.1}}"#.utf8))

        // Options win over the file, the file over the defaults; --save-settings writes what was in effect.
        let saved = try box.run(["--pack", "cathedral", "--key", "F", "--no-play-along", "--save-settings"])
        #expect(saved.status == 0 && saved.output.contains("pack Cathedral"), "\(saved.error)")
        #expect(saved.output.contains("settings saved to \(box.config.path)"), "\(saved.output)")
        let hecate = try #require(try box.saved()["hecate"] as? [String: Any])
        #expect(hecate["key"] as? String == "F")            // options
        #expect(hecate["pack"] as? String == "cathedral")
        #expect(hecate["playAlong"] as? Bool == false)
        #expect(hecate["bpm"] as? Double == 120)            // the file
        #expect(hecate["route"] as? String == "bluetooth")
        #expect(hecate["tremolo"] as? String == "off")      // the default
        // Another pack than the file's brings its own levels (as in the studio).
        #expect(hecate["reverb"] as? Double != 0.1)
        #expect(try box.saved()["version"] as? Int == 1)
    }

    @Test("a broken settings file: the defaults, a warning naming the field, the file kept aside; --map loads bindings")
    func brokenFileAndMap() throws {
        let box = try Sandbox()
        try box.write(settings: #"{"version":1,"hecate":{"bpm":1000}}"#)
        let run = try box.run([])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("hecate.bpm") && run.error.contains("using the defaults"), "\(run.error)")
        #expect(run.output.contains("pack Cathedral"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: box.config.deletingLastPathComponent().path)
        #expect(kept.count == 1 && kept[0].hasPrefix("settings.json.bad-"), "\(kept)")

        let map = box.root.appendingPathComponent("map.json")
        try #"{"midi":[{"control":"hecate.reverb","source":"cc","channel":1,"controller":91}]}"#.write(to: map, atomically: true, encoding: .utf8)
        let mapped = try box.run(["--map", map.path, "--save-settings"])
        #expect(mapped.status == 0, "\(mapped.error)")
        let midi = try #require(try box.saved()["midi"] as? [[String: Any]])
        #expect(midi.count == 1 && midi[0]["control"] as? String == "hecate.reverb" && midi[0]["controller"] as? Int == 91)

        try #"{"midi":[{"control":"hecate.key","source":"cc","controller":1}]}"#.write(to: map, atomically: true, encoding: .utf8)
        let refused = try box.run(["--map", map.path])
        #expect(refused.status != 0 && refused.error.contains("midi[0].control"), "\(refused.error)")
        let learn = try box.run(["--learn", "key"])
        #expect(learn.status != 0 && learn.error.contains("not a learnable control"), "\(learn.error)")
    }
}
