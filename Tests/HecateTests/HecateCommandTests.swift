import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero hecate` and `prospero demo` as a user runs them.
@Suite(.ownThread) struct HecateCommandTests {
    /// The `prospero` executable built next to this test bundle.
    static var prospero: URL? { TestPeers.prospero }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let prospero = try TestPeers.require(Self.prospero, "the prospero executable (swift build)")
        let process = Process()
        process.executableURL = prospero
        process.arguments = arguments
        process.currentDirectoryURL = HecatePerformanceTests.repository
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    @Test func offlineRenderWritesAReadableWAV() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hecate-cli-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run([
            "hecate", "--input", "examples/face-performance.jsonl", "--pack", "coven", "-o", path,
            "--key", "Eb", "--chord", "I@0,vi@10,IV@20", "--arp", "--arp-division", "1/16", "--bpm", "100",
            "--tremolo", "square", "--tremolo-division", "1/8T", "--tremolo-depth", "0.4", "--reverb-mix", "0.2",
            "--play-along", "--route", "bluetooth",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("wrote"))
        let wav = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(wav.sampleRate == 48_000 && wav.channels.count == 2)
        #expect(Double(wav.frameCount) / 48_000 > 40)
        let peakValue = wav.channels.flatMap { $0 }.map(abs).max() ?? 0
        // Play-along over Bluetooth: −14 dBFS ceiling (plus 24-bit rounding).
        #expect(peakValue <= Float(pow(10, -14.0 / 20)) * 1.0001 && peakValue > 0.05, "peak \(peakValue)")
    }

    /// `--midi-out FILE.mid` beside `-o`: the render's MIDI as a Standard MIDI File on the chosen channel,
    /// the performance's voices as notes, every note-on paired, All Notes Off last.
    @Test func offlineRenderWritesTheFaceAsAMIDIFile() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hecate-midi-\(getpid())").path
        defer { for ext in ["wav", "mid"] { try? FileManager.default.removeItem(atPath: "\(base).\(ext)") } }
        let result = try Self.run(["hecate", "--input", "examples/face-performance.jsonl", "--no-settings", "-o", "\(base).wav",
                                   "--midi-out", "\(base).mid", "--midi-channel", "4"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("controller changes, channel 4"), "\(result.output)")
        let file = try MIDIFile(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: "\(base).mid"))))
        let messages = file.tracks.flatMap(\.events).compactMap { event -> MIDIShortMessage? in
            if case .message(let m) = event.kind { return m.shortMessage } else { return nil }
        }
        #expect(messages.allSatisfy { $0.status & 0x0F == 3 })
        let ons = messages.filter { $0.status == 0x93 && $0.data2 > 0 }
        #expect(Set(ons.map(\.data1)) == [48, 52, 55, 59, 60, 62, 36])
        #expect(messages.filter { $0.status == 0x83 }.count == ons.count)
        #expect(messages.last == MIDIShortMessage(status: 0xB3, data1: 123, data2: 0))
        let bad = try Self.run(["hecate", "--input", "examples/face-performance.jsonl", "-o", "\(base).wav", "--midi-channel", "17"])
        #expect(bad.status != 0 && bad.error.contains("--midi-channel"))
        let live = try Self.run(["hecate", "--input", "examples/face-performance.jsonl", "-o", "\(base).wav", "--midi"])
        #expect(live.status != 0 && live.error.contains("--midi-out FILE.mid"))
    }

    @Test func badOptionsSayWhatIsWrong() throws {
        let chord = try Self.run(["hecate", "--input", "examples/face-performance.jsonl", "--chord", "IX", "-o", "/tmp/x.wav"])
        #expect(chord.status != 0 && chord.error.contains("IX"))
        let pack = try Self.run(["hecate", "--input", "examples/face-performance.jsonl", "--pack", "/no/such/pack.json", "-o", "/tmp/x.wav"])
        #expect(pack.status != 0 && pack.error.contains("pack"))
        let recording = try Self.run(["hecate", "--input", "/no/such/recording.jsonl", "-o", "/tmp/x.wav"])
        #expect(recording.status != 0 && recording.error.contains("recording"))
    }
}
