import Enobarbus
import Horatio
import Testing

/// Recordings are bounded: gaps shortened, frame count and size limited, and read → write → read exact.
@Suite struct RecordingBoundsTests {
    static let header = #"{"format":"prospero-recording","version":1,"created":"","note":""}"#

    static func touch(_ t: String, x: Double = 0.5) -> String { #"{"t":\#(t),"touch":{"slot":0,"x":\#(x),"y":0.5,"p":1}}"# }

    @Test func longGapsAreShortenedToTenSecondsWithAWarning() throws {
        // Frames about 1e9 s apart (32 years), then 0.5 s and 8.25 s later.
        let file = [Self.header, Self.touch("1.5"), Self.touch("999999990.5"), Self.touch("999999991"), Self.touch("999999999.25")]
            .joined(separator: "\n")
        let result = try RecordingReader.read(file)
        #expect(result.recording.frames.map(\.timestamp) == [1.5, 11.5, 12, 20.25])
        #expect(result.warnings == [RecordingWarning(line: 3, gap: 999999989, shortenedTo: 10)])
        #expect(result.warnings.first?.description.contains("shortened to 10") == true)
        // A leading gap counts too: a take whose first frame is at 1000 s starts at 10 s.
        let late = try RecordingReader.read([Self.header, Self.touch("1000")].joined(separator: "\n"))
        #expect(late.recording.frames.map(\.timestamp) == [10] && late.warnings.count == 1)
        // Read again, the shortened recording has no gap left to warn about.
        let again = try RecordingReader.read(result.recording.encoded())
        #expect(again.recording == result.recording && again.warnings.isEmpty)
    }

    @Test func frameCountAndSizeAreLimited() throws {
        let file = ([Self.header] + (0..<5).map { Self.touch("\($0)") }).joined(separator: "\n")
        var limits = RecordingLimits()
        limits.maximumFrames = 4
        #expect(throws: RecordingError(line: 6, .tooManyFrames(limit: 4))) { try RecordingReader.parse(file, limits: limits) }
        limits = RecordingLimits(maximumBytes: 100)
        #expect(throws: RecordingError(line: 1, .fileTooLarge(bytes: file.utf8.count, limit: 100))) {
            try RecordingReader.parse(Array(file.utf8), limits: limits)
        }
        #expect(RecordingError(line: 6, .tooManyFrames(limit: 4)).description == "recording line 6: more than 4 frames, the limit for one recording")
        #expect(try RecordingReader.parse(file).frames.count == 5)
    }

    @Test func timesWithManyDigitsRoundTripAndWritingIsIdempotent() throws {
        // 60 decimal digits (libFuzzer found that such a time changed on the round trip).
        let t = "0.1234567890" + String(repeating: "1234567890", count: 5)
        let file = [Self.header, Self.touch(t), Self.touch("2.0000004999"), Self.touch("2.0000005")].joined(separator: "\n")
        let first = try RecordingReader.parse(file)
        #expect(first.frames.map(\.timestamp) == [0.123457, 2, 2.000001])
        let written = first.encoded()
        let second = try RecordingReader.parse(written)
        #expect(second == first)
        #expect(second.encoded() == written)
        #expect(written.contains(#"{"t":0.123457,"#))
    }

    @Test func canonicalTimeIsMicroseconds() {
        #expect(Recording.canonicalTime(0.016) == 0.016)
        #expect(Recording.canonicalTime(1.0000004) == 1)
        #expect(Recording.canonicalTime(1.0000006) == 1.000001)
        #expect(Recording.canonicalTime(999_999_999.123_456_7) == 999_999_999.123_457)
    }

    @Test func aReplayNeverWaitsLongerThanTheGapLimit() async {
        // A recording made in code (not read) with frames 1e9 s apart: the replay's clock sees 10 s.
        let recording = Recording(frames: [.ended(.face, timestamp: 0), .ended(.face, timestamp: 1e9)])
        let clock = SteppingClock()
        let player = RecordingPlayer(recording, pace: .realTime)
        await player.play(clock: clock, startingAt: clock.now) { _ in }
        #expect(clock.now.offset == .seconds(10))
    }
}
