import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import ProsperoTestSupport
import Testing

/// Hostile recordings end within seconds: a long gap costs O(1), a long take is refused before rendering.
@Suite(.ownThread) struct HecateRecordingRenderTests {
    static let gapRecording = Recording(frames: [HecatePerformanceTests.face(0, [.jawOpen: 0.5]), .ended(.face, timestamp: 0.1),
                                                 HecatePerformanceTests.face(1e9, [.jawOpen: 0.5])])

    @Test func aGapOfThirtyYearsSchedulesInConstantTime() {
        var performance = HecatePerformance()
        let commands = performance.schedule(Self.gapRecording, sampleRate: 48_000)
        // Found, the face, lost (ended); found, the face, and lost after the last frame: nothing per tick.
        #expect(commands.count == 6)
        #expect(commands.last.map { Double($0.frame) / 48_000 } .map { abs($0 - (1e9 + 0.26)) < 1e-3 } == true)
    }

    @Test func aRecordingLongerThanTheLimitIsRefusedBeforeRendering() throws {
        #expect(throws: OfflineRenderError.tooLong(seconds: 1e9, limit: 4 * 3600)) {
            _ = try HecateRecordingRender.render(
                Self.gapRecording, engine: DroneSynthEngine(), initial: [], chords: [],
                options: HecateRecordingRender.options(sampleRate: 48_000, format: .pcm16), to: WAVMemorySink())
        }
    }

    @Test(.enabled(if: TestPeers.enabled(TestPeers.prospero != nil)))
    func theCommandLineRendersAGapAsTenSecondsWithAWarning() async throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hecate-gap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("gap.jsonl"), wav = directory.appendingPathComponent("gap.wav")
        // Two frames 1e9 s apart, as a file: the reader shortens the gap to 10 s.
        try Recording(frames: [HecatePerformanceTests.face(0, [.jawOpen: 0.5]), HecatePerformanceTests.face(999_999_999, [.jawOpen: 0.5])])
            .encoded().write(to: input, atomically: true, encoding: .utf8)
        let result = try await TestPeers.run(prospero.path, ["hecate", "--input", input.path, "-o", wav.path], timeout: 120)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("line 3: a gap of 999999999.0 s without frames was shortened to 10.0 s"), "\(result.output)")
        let audio = try WAVAudio(decoding: Array(try Data(contentsOf: wav)))
        // 0.25 s lead, 10 s between the frames, the face-lost fade after 0.26 s, then a tail of at most 6 s.
        let seconds = Double(audio.frameCount) / 48_000
        #expect(seconds > 10.5 && seconds < 17, "\(seconds) s")
        // Refused with the limit named when the take is longer than --max-duration.
        let short = try await TestPeers.run(prospero.path, ["hecate", "--input", input.path, "-o", wav.path, "--max-duration", "5"], timeout: 60)
        #expect(short.status != 0 && short.output.contains("longer than the render limit of 5.0 s"), "\(short.output)")
    }
}
