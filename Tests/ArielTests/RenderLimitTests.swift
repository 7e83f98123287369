import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// A render refuses a song longer than its limit before rendering, with a message naming the limit.
@Suite(.ownThread) struct RenderLimitTests {
    /// A valid format-0 file at 480 ticks per quarter note (120 BPM by default): a note-on, then one
    /// delta of 0x0FFFFFFF ticks (the largest a variable-length quantity holds) before its note-off.
    static let hostileSong: [UInt8] = {
        let track: [UInt8] = [0x00, 0x90, 60, 100, 0xFF, 0xFF, 0xFF, 0x7F, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8)
            + [0, 0, 0, UInt8(track.count)] + track
    }()

    /// 0x0FFFFFFF ticks ÷ 480 per beat × 0.5 s per beat.
    static let hostileSeconds = Double(0x0FFF_FFFF) / 480 * 0.5

    @Test func aSongOfSeventySevenHoursIsRefusedBeforeRendering() throws {
        do {
            _ = try PolySynthSongRender.render(midiFile: Self.hostileSong, settings: PolySynthSettings(), to: WAVMemorySink())
            Issue.record("the render should have been refused")
        } catch let error as OfflineRenderError {
            guard case .tooLong(let seconds, let limit) = error else { Issue.record("\(error)"); return }
            #expect(abs(seconds - Self.hostileSeconds) < 1e-3 && limit == 4 * 3600)
            #expect(error.description == "the input lasts 77 h 40 min 20 s (279620 s), longer than the render limit of 4 h (14400 s)")
        }
    }

    @Test func theLimitIsAnOption() throws {
        let url = try #require(Bundle.module.url(forResource: "song", withExtension: "mid", subdirectory: "Fixtures"))
        let song = Array(try Data(contentsOf: url))
        var options = OfflineRenderOptions(tailSeconds: 0)
        options.maximumSeconds = 5
        #expect(throws: OfflineRenderError.self) { try PolySynthSongRender.render(midiFile: song, settings: PolySynthSettings(), options: options) }
        options.maximumSeconds = Self.hostileSeconds + 1
        let renderer = OfflineRenderer(engine: PolySynth(capacity: 4), options: options)
        let sequencer = MIDISequencer(file: try MIDIFile(decoding: Self.hostileSong), sampleRate: options.sampleRate)
        // The song's end (the note-off's frame, plus one) and no tail.
        let planned = try renderer.plannedFrames(midi: sequencer)
        #expect(abs(Double(planned) - Self.hostileSeconds * 48_000) <= 2, "\(planned)")
    }

    @Test(.enabled(if: TestPeers.enabled(TestPeers.prospero != nil)))
    func theCommandLineNamesTheLimitAndHowToRaiseIt() async throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("render-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let song = directory.appendingPathComponent("hostile.mid"), wav = directory.appendingPathComponent("out.wav")
        try Data(Self.hostileSong).write(to: song)
        let result = try await TestPeers.run(prospero.path, ["render", song.path, "-o", wav.path], timeout: 30)
        #expect(result.status != 0)
        #expect(result.output.contains("longer than the render limit of 4 h (14400 s)"), "\(result.output)")
        #expect(result.output.contains("--max-duration"))
        #expect(!FileManager.default.fileExists(atPath: wav.path), "no half-written file is left")
        let bad = try await TestPeers.run(prospero.path, ["render", song.path, "-o", wav.path, "--max-duration", "0"], timeout: 30)
        #expect(bad.status != 0 && bad.output.contains("--max-duration must be a positive number"))
    }
}
