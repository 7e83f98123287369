import Ariel
import Enobarbus
import Foundation
import Horatio
import Prospero
import Testing

@Suite struct HandsPerformanceTests {
    static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/hands-scale.jsonl")

    static func notes(_ messages: [RoutedMIDIMessage]) -> [(Int, Int)] {
        messages.compactMap { if case .noteOn(_, let n, let v) = $0.message { return (n.intValue, v.intValue) } else { return nil } }
    }

    /// The example recording (examples/hands-scale.py): hand 0 open-handed up through all eleven
    /// zones of C major pentatonic 48…72, then down with a fist, one zone at a time; touch 1 taps at
    /// y 0.9 (height 0.1 → Int(1.1) = zone 1 → 50) and y 0.7 (Int(3.3) = zone 3 → 55) with pressure 0.6.
    @Test func theExampleRecordingPlaysTheScaleUpAndDown() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.example)))
        let performance = try HandsPerformance(recording: recording, settings: MIDIRouterSettings())
        let played = Self.notes(performance.messages)
        let up = [48, 50, 52, 55, 57, 60, 62, 64, 67, 69, 72]
        // Five fingers → velocity 127; a fist → 40; pressure 0.6 → 40 + round(0.6 × 87) = 92.
        let expected = up.map { ($0, 127) } + up.dropLast().reversed().map { ($0, 40) } + [(50, 92), (55, 92)]
        #expect(played.map(\.0) == expected.map(\.0))
        #expect(played.map(\.1) == expected.map(\.1))
        // Every note ends, and the end is CC 123 on channel 1.
        let offs = performance.messages.filter(\.message.isNoteOff).count
        #expect(offs == played.count)
        #expect(performance.messages.last?.message == .allNotesOff(channel: 0))
    }

    @Test func theMIDIFileHoldsTheSameMessagesAtTheirTimes() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: Self.example)))
        let performance = try HandsPerformance(recording: recording, settings: MIDIRouterSettings(channels: .shared(channel: 3)))
        let file = try MIDIFile(decoding: try performance.midiFile().encoded())
        #expect(file.format == .singleTrack)
        let map = file.tempoMap
        let decoded: [(Double, MIDIMessage)] = file.tracks[0].timedEvents.compactMap { tick, event in
            if case .message(let m) = event.kind { return (map.seconds(atTick: tick), m) } else { return nil }
        }
        #expect(decoded.map(\.1) == performance.messages.map(\.message))
        for (d, m) in zip(decoded, performance.messages) { #expect(abs(d.0 - m.time) <= 0.5 / 1920 + 1e-9) }
    }

    /// A recording lost mid-note (no `ended`, just silence) still ends its notes after the timeout.
    @Test func aHandThatStopsSendingIsTimedOut() throws {
        var landmarks = [SIMD3<Float>](repeating: SIMD3(0.5, 0.5, 0), count: 21)
        landmarks[9] = SIMD3(0.5, 0.4, 0)
        let frames = (0..<5).map { TrackingFrame.hand(HandFrame(slot: 2, timestamp: Double($0) * 0.02, landmarks: landmarks)) }
        var performer = try HandsPerformer(settings: MIDIRouterSettings(horizontalController: nil, expressionController: nil))
        var out: [RoutedMIDIMessage] = []
        for f in frames { out += performer.ingest([f], at: f.timestamp) }
        // Palm centre y = (0.5 × 4 + 0.4) / 5 = 0.48 → height 0.52 → Int(5.72) = zone 5 → 60; no fingers → velocity 40.
        #expect(bytes(out) == [[0x90, 60, 40]])
        #expect(performer.advance(to: 0.3).isEmpty)          // 0.22 s since the last frame: still there
        #expect(bytes(performer.advance(to: 0.34)) == [[0x80, 60, 0]])  // past the 0.25 s timeout
    }
}

/// A recording made in code with frames 1e9 s apart plays in O(1) per gap: the same notes as with a
/// 1 s gap, the later ones moved by the difference.
@Suite struct HandsPerformanceGapTests {
    static func recording(gap: Double) -> Recording {
        var open = [SIMD3<Float>](repeating: SIMD3(0.5, 0.5, 0), count: 21)
        open[9] = SIMD3(0.5, 0.4, 0)
        var high = open
        for k in high.indices { high[k].y -= 0.3 }
        let hand = { (t: Double, lm: [SIMD3<Float>]) in TrackingFrame.hand(HandFrame(slot: 0, timestamp: t, landmarks: lm)) }
        return Recording(frames: [hand(0, open), hand(0.02, open), hand(gap, high), hand(gap + 0.02, high)])
    }

    @Test func aThirtyYearGapPlaysLikeAShortOne() throws {
        let short = try HandsPerformance(recording: Self.recording(gap: 1), settings: MIDIRouterSettings(), stabilizes: false)
        let long = try HandsPerformance(recording: Self.recording(gap: 1e9), settings: MIDIRouterSettings(), stabilizes: false)
        #expect(long.messages.map(\.message) == short.messages.map(\.message))
        #expect(HandsPerformanceTests.notes(long.messages).count == 2)
        let moved = zip(long.messages, short.messages).map { $0.time - $1.time }
        #expect(moved.first == 0)
        #expect(moved.last.map { abs($0 - (1e9 - 1)) < 1e-3 } == true)
    }
}
