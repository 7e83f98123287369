import Enobarbus
import Foundation
import Horatio
import Synchronization
import Testing

@Suite struct RecordingTests {
    static func sampleFrames() -> [TrackingFrame] {
        var face = FaceFrame(timestamp: 0)
        face.blendshapes[.jawOpen] = 0.42
        face.blendshapes[.mouthSmileRight] = 0.1234567
        face.head = HeadRotation(yaw: 12.5, pitch: -3.25, roll: 0.1)
        let hand = HandFrame(slot: 1, timestamp: 0.02, landmarks: (0..<21).map { SIMD3(Float($0) * 0.0371, 0.9 - Float($0) * 0.013, -0.001 * Float($0)) },
                             handedness: .left, confidence: 0.97)
        return [
            .face(face),
            .hand(hand),
            .touch(TouchFrame(slot: 3, timestamp: 0.05, x: 0.25, y: 0.8, pressure: 0.3)),
            .touch(TouchFrame(slot: 3, timestamp: 0.1, x: 0.3, y: 0.75, pressure: 1)),
            .ended(.touch(3), timestamp: 0.2),
            .ended(.hand(1), timestamp: 0.2),
        ]
    }

    @Test func roundTripIsBitExact() throws {
        let recording = Recording(created: "2026-11-22T02:40:00Z", note: "a \"quoted\" note\nwith a newline", frames: Self.sampleFrames())
        let text = recording.encoded()
        #expect(text.hasPrefix("{\"format\":\"prospero-recording\",\"version\":1,"))
        #expect(text.split(separator: "\n").count == 7)
        let back = try RecordingReader.parse(text)
        #expect(back == recording)
        #expect(try RecordingReader.parse(Array(text.utf8)) == recording)
    }

    @Test func theScreenAspectRatioIsAnOptionalHeaderField() throws {
        let touch = Recording(note: "touch", aspectRatio: 0.4615, frames: [.touch(TouchFrame(slot: 0, timestamp: 0.5, x: 0.5, y: 0.5))])
        let text = touch.encoded()
        #expect(text.hasPrefix("{\"format\":\"prospero-recording\",\"version\":1,\"created\":\"\",\"note\":\"touch\",\"aspect\":0.4615}\n"))
        #expect(try RecordingReader.parse(text) == touch)
        // Without it the header is as before, and the reader leaves it nil.
        #expect(!Recording(note: "x").encoded().contains("aspect"))
        #expect(try RecordingReader.parse("{\"format\":\"prospero-recording\",\"version\":1}\n").aspectRatio == nil)
        for bad in ["0", "-1", "\"wide\""] {
            #expect(throws: RecordingError.self) { try RecordingReader.parse("{\"format\":\"prospero-recording\",\"version\":1,\"aspect\":\(bad)}\n") }
        }
    }

    @Test func documentedExampleLinesParse() throws {
        let text = """
            {"format":"prospero-recording","version":1,"created":"2026-11-22T02:30:00Z","extra":"ignored"}

            {"t":0.016,"face":{"blend":{"jawOpen":0.42,"browInnerUp":0.1},"head":[12.5,-3,0.5]}}
            {"t":0.031,"touch":{"slot":1,"x":0.25,"y":0.8,"p":1}}
            {"t":0.500,"ended":"touch1"}
            """
        let r = try RecordingReader.parse(text)
        #expect(r.frames.count == 3)
        guard case .face(let f) = r.frames[0] else { Issue.record("not a face"); return }
        #expect(f.blendshapes[.browInnerUp] == 0.1 && f.head.pitch == -3)
        #expect(r.frames[2] == .ended(.touch(1), timestamp: 0.5))
    }

    static let header = #"{"format":"prospero-recording","version":1}"#

    static let malformed: [(String, RecordingError)] = [
        ("", RecordingError(line: 1, .empty)),
        ("{\"format\":\"other\",\"version\":1}", RecordingError(line: 1, .wrongFormat("other"))),
        ("{\"format\":\"prospero-recording\",\"version\":2}", RecordingError(line: 1, .unsupportedVersion(2))),
        ("{\"format\":\"prospero-recording\"}", RecordingError(line: 1, .missingField("version"))),
        ("[1,2]", RecordingError(line: 1, .notJSONObject)),
        (header + "\n{\"t\":0,\"touch\":{\"slot\":0,\"x\":0.5,\"y\":0.5,\"p\":1}}\nnot json", RecordingError(line: 3, .notJSONObject)),
        (header + "\n{\"touch\":{\"slot\":0,\"x\":0.5,\"y\":0.5,\"p\":1}}", RecordingError(line: 2, .missingField("t"))),
        (header + "\n{\"t\":1,\"ended\":\"face\"}\n{\"t\":0.5,\"ended\":\"face\"}", RecordingError(line: 3, .timeWentBackwards(previous: 1, time: 0.5))),
        (header + "\n{\"t\":0}", RecordingError(line: 2, .unknownFrameKind)),
        (header + "\n{\"t\":0,\"ended\":\"face\",\"touch\":{}}", RecordingError(line: 2, .unknownFrameKind)),
        (header + "\n{\"t\":0,\"face\":{\"blend\":{\"jawopen\":0.5}}}", RecordingError(line: 2, .unknownBlendshape("jawopen"))),
        (header + "\n{\"t\":0,\"face\":{\"blend\":{\"jawOpen\":1.5}}}", RecordingError(line: 2, .outOfRange(field: "blend.jawOpen", value: 1.5))),
        (header + "\n{\"t\":0,\"face\":{\"head\":[1,2]}}", RecordingError(line: 2, .wrongType(field: "head", expected: "an array of 3 numbers"))),
        (header + "\n{\"t\":0,\"hand\":{\"slot\":0,\"lm\":[1,2,3]}}", RecordingError(line: 2, .landmarkCount(3))),
        (header + "\n{\"t\":0,\"hand\":{\"slot\":4,\"lm\":[]}}", RecordingError(line: 2, .outOfRange(field: "slot", value: 4))),
        (header + "\n{\"t\":0,\"touch\":{\"slot\":0,\"x\":\"a\",\"y\":0.5,\"p\":1}}", RecordingError(line: 2, .wrongType(field: "x", expected: "a number"))),
        (header + "\n{\"t\":0,\"touch\":{\"slot\":0,\"x\":true,\"y\":0.5,\"p\":1}}", RecordingError(line: 2, .wrongType(field: "x", expected: "a number"))),
        (header + "\n{\"t\":0,\"touch\":{\"slot\":0.5,\"x\":0,\"y\":0.5,\"p\":1}}", RecordingError(line: 2, .wrongType(field: "slot", expected: "an integer"))),
        (header + "\n{\"t\":0,\"ended\":\"hand7\"}", RecordingError(line: 2, .unknownSource("hand7"))),
        (header + "\n{\"t\":-1,\"ended\":\"face\"}", RecordingError(line: 2, .outOfRange(field: "t", value: -1))),
    ]

    @Test(arguments: malformed)
    func malformedRecordingsNameTheLine(text: String, expected: RecordingError) {
        #expect(throws: expected) { try RecordingReader.parse(text) }
    }

    @Test func invalidUTF8IsATypedError() {
        #expect(throws: RecordingError(line: 1, .notUTF8)) { try RecordingReader.parse([0xFF, 0xFE, 0x7B]) }
    }

    @Test func fastReplayReproducesTheFramesAndTheLifecycleEvents() async throws {
        let recording = try RecordingReader.parse(Recording(frames: Self.sampleFrames()).encoded())
        var replayed: [TrackingFrame] = []
        await RecordingPlayer(recording, pace: .asFastAsPossible).play { replayed.append($0) }
        #expect(replayed == Self.sampleFrames())

        var live = SourceLifecycle(), again = SourceLifecycle()
        let liveEvents = Self.sampleFrames().flatMap { live.ingest([$0], at: $0.timestamp) }
        var replayEvents: [SourceEvent] = []
        for await frame in RecordingPlayer(recording, pace: .asFastAsPossible).frames() {
            replayEvents += again.ingest([frame], at: frame.timestamp)
        }
        #expect(replayEvents == liveEvents)
        #expect(liveEvents.count == 6)
    }

    @Test func realTimeReplaySchedulesEachFrameAtItsRecordedTime() async {
        let times = [0.0, 0.05, 0.1, 0.2, 0.3]
        let frames = times.map { TrackingFrame.touch(TouchFrame(slot: 0, timestamp: $0 + 10, x: Float($0), y: 0)) }
        let clock = SteppingClock()
        var deliveredAt: [Duration] = []
        await RecordingPlayer(Recording(frames: frames), pace: .realTime).play(clock: clock, startingAt: clock.now) { _ in
            deliveredAt.append(clock.now.offset)
        }
        #expect(deliveredAt == times.map { .microseconds(Int64($0 * 1_000_000)) })
        var fast: [Duration] = []
        await RecordingPlayer(Recording(frames: frames), pace: .asFastAsPossible).play(clock: clock, startingAt: clock.now) { _ in
            fast.append(clock.now.offset)
        }
        #expect(Set(fast).count == 1, "as fast as possible: no waiting")
    }

    @Test func realTimeReplayOnTheRealClockIsNeverEarly() async {
        // Lateness depends on the machine's load, so only order and "never early" are checked here;
        // the schedule itself is checked exactly on a test clock above.
        let times = [0.0, 0.02, 0.05]
        let frames = times.map { TrackingFrame.ended(.touch(1), timestamp: $0) }
        let clock = ContinuousClock()
        let start = clock.now
        var offsets: [Double] = []
        await RecordingPlayer(Recording(frames: frames), pace: .realTime).play(startingAt: start) { _ in
            let d = clock.now - start
            offsets.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        #expect(offsets.count == 3)
        for (offset, t) in zip(offsets, times) { #expect(offset >= t - 0.0005, "frame due at \(t) came at \(offset)") }
    }
}

/// A clock whose sleeps return at once, advancing `now` to the deadline.
final class SteppingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let current = Mutex(Instant(offset: .zero))
    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        current.withLock { if $0 < deadline { $0 = deadline } }
    }
}
