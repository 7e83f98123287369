import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero hands` takes `prospero play`'s synth options: a recording rendered offline through the
/// built-in synth hears them, and its `--bend-range` reaches router and synth alike.
@Suite(.ownThread) struct HandsCommandSynthOptionsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ arguments: [String]) throws -> CLIProcess.Result {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        return try CLIProcess.run(prospero, arguments, directory: repository)
    }

    static func render(_ options: [String]) throws -> [Float] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hands-synth-\(getpid())-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: base.path + ".mid")
            try? FileManager.default.removeItem(atPath: base.path + ".wav")
        }
        let result = try run(["hands", "--input", "examples/hands-scale.jsonl", "--midi-out", base.path + ".mid",
                              "--wav-out", base.path + ".wav"] + options)
        #expect(result.status == 0, "\(result.error)")
        let wav = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: base.path + ".wav"))))
        return wav.channels[0]
    }

    @Test("the synth options shape the offline render: a lower ceiling holds the peak under it, the waveform changes the sound")
    func synthOptionsReachTheRender() throws {
        let sine = try Self.render(["--waveform", "sine"])
        let square = try Self.render(["--waveform", "square", "--ceiling=-12"])
        let peak = square.map(abs).max() ?? 0
        #expect(peak > 0.05 && peak <= Float(pow(10, -12.0 / 20)) * 1.001, "peak \(peak)")
        #expect(sine.count == square.count)
        #expect(zip(sine, square).contains { abs($0 - $1) > 0.01 })
    }

    @Test("bad synth options name themselves; the synth's 24-semitone bend limit is checked against --bend-range")
    func badOptions() throws {
        let wave = try Self.run(["hands", "--input", "examples/hands-scale.jsonl", "--midi-out", "/tmp/x.mid",
                                 "--wav-out", "/tmp/x.wav", "--waveform", "noise"])
        #expect(wave.status != 0 && wave.error.contains("--waveform"), "\(wave.error)")
        let bend = try Self.run(["hands", "--output", "synth", "--mpe", "--bend-range", "48"])
        #expect(bend.status != 0 && bend.error.contains("24"), "\(bend.error)")
        let reverb = try Self.run(["hands", "--output", "both", "--reverb-mix", "2"])
        #expect(reverb.status != 0 && reverb.error.contains("reverb"), "\(reverb.error)")
        // play keeps its own --bend-range.
        let play = try Self.run(["play", "--bend-range", "30"])
        #expect(play.status != 0 && play.error.contains("pitchBendRange"), "\(play.error)")
    }
}
