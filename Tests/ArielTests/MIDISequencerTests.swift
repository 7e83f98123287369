import Ariel
import Testing

@Suite struct MIDISequencerTests {
    /// 96 PPQN at 48 kHz. 120 BPM until tick 192 (250 frames per tick), then 100 BPM
    /// (600 000 µs: 300 frames per tick), set in a conductor track as format 1 files do.
    static func file() -> MIDIFile {
        let conductor = MIDIFileTrack(events: [
            .meta(.tempo(microsecondsPerQuarterNote: 500_000)),
            .meta(.tempo(microsecondsPerQuarterNote: 600_000), delta: 192),
            .meta(.endOfTrack, delta: 200),
        ])
        let notes = MIDIFileTrack(events: [
            .message(.noteOn(channel: 0, note: 60, velocity: 100)),             // tick 0
            .message(.noteOff(channel: 0, note: 60, velocity: 0), delta: 96),   // tick 96
            .message(.noteOn(channel: 1, note: 62, velocity: 90), delta: 2),    // tick 98
            .message(.controlChange(channel: 1, controller: 7, value: 64), delta: 94), // tick 192
            .message(.noteOff(channel: 1, note: 62, velocity: 0), delta: 96),   // tick 288
            .message(.programChange(channel: 1, program: 3), delta: 12),        // tick 300
            .meta(.endOfTrack),
        ])
        return MIDIFile(format: .multiTrack, division: .ticksPerQuarterNote(96), tracks: [conductor, notes])
    }

    /// Frames worked out by hand: 250 per tick up to tick 192 (frame 48 000), 300 per tick after.
    static let expectedFrames: [Int64] = [0, 24_000, 24_500, 48_000, 48_000 + 96 * 300, 48_000 + 108 * 300]

    func play(_ s: MIDISequencer, blockSizes: [Int], limit: Int = 1_000_000) -> [(frame: Int64, message: MIDIShortMessage?)] {
        var out: [(Int64, MIDIShortMessage?)] = []
        var frame: Int64 = 0
        var i = 0
        while !s.isFinished && i < limit {
            let n = blockSizes[i % blockSizes.count]
            var last = -1
            for e in s.nextBlock(frameCount: n) {
                #expect(e.frameOffset >= 0 && e.frameOffset < n && e.frameOffset >= last)
                last = e.frameOffset
                out.append((frame + Int64(e.frameOffset), e.message))
            }
            frame += Int64(n)
            i += 1
        }
        return out
    }

    @Test(arguments: [[512], [1], [100, 333, 7, 4096], [24_000], [127, 129]])
    func eventsLandOnTheExactFrameAcrossBlocksAndTempoChanges(blockSizes: [Int]) {
        let s = MIDISequencer(file: Self.file(), sampleRate: 48_000)
        #expect((0..<s.eventCount).map { s.frame(ofEvent: $0) } == Self.expectedFrames)
        let played = play(s, blockSizes: blockSizes)
        #expect(played.map(\.frame) == Self.expectedFrames)
        #expect(played.map { $0.message?.status } == [0x90, 0x80, 0x91, 0xB1, 0x81, 0xC1])
        // End of track is tick 392 on the conductor: 48 000 + 200 × 300 frames.
        #expect(s.endFrame == 108_000)
        #expect(s.isFinished)
    }

    @Test func seekSilencesSoundingNotes() {
        let s = MIDISequencer(file: Self.file(), sampleRate: 48_000)
        _ = s.nextBlock(frameCount: 25_000)  // C4 on and off, D4 (ch 2) on and still sounding
        s.chasesControllers = false
        s.seek(toTick: 192)
        let block = Array(s.nextBlock(frameCount: 1))
        #expect(block.count == 2)
        #expect(block[0].message == MIDIShortMessage(status: 0x81, data1: 62, data2: 0))
        #expect(block[0].frameOffset == 0)
        #expect(block[1].message?.status == 0xB1)
        #expect(s.position == 48_001)
    }

    @Test func seekChasesProgramControllersAndBend() {
        let track = MIDIFileTrack(events: [
            .message(.controlChange(channel: 3, controller: 0, value: 1)),
            .message(.programChange(channel: 3, program: 40)),
            .message(.controlChange(channel: 3, controller: 7, value: 90)),
            .message(.controlChange(channel: 3, controller: 101, value: 0)),  // RPN select: not chased
            .message(.controlChange(channel: 3, controller: 7, value: 70), delta: 10),
            .message(.pitchBend(channel: 3, value: 0x1234), delta: 10),
            .message(.channelPressure(channel: 0, pressure: 9), delta: 10),
            .message(.controlChange(channel: 3, controller: 7, value: 10), delta: 1000),  // after the seek point
        ])
        let s = MIDISequencer(file: MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(96), tracks: [track]),
                              sampleRate: 48_000, maximumEventsPerBlock: 3)
        s.seek(toTick: 500)
        let first = s.nextBlock(frameCount: 16).map(\.message!)
        let second = s.nextBlock(frameCount: 16).map(\.message!)
        // Channel 1 first (pressure), then channel 4: bank, program, volume (last value), bend.
        #expect(first.map(\.bytes) == [[0xD0, 9], [0xB3, 0, 1], [0xC3, 40]])
        #expect(second.map(\.bytes) == [[0xB3, 7, 70], [0xE3, 0x34, 0x24]])
        #expect(s.nextBlock(frameCount: 16).isEmpty)
    }

    @Test func loopRepeatsSampleAccuratelyAndReleasesHeldNotes() {
        let s = MIDISequencer(file: Self.file(), sampleRate: 48_000)
        s.setLoop(ticks: 96..<192)  // frames 24 000 ..< 48 000
        var frames: [Int64] = []
        var statuses: [UInt8] = []
        var frame: Int64 = 0
        for _ in 0..<(96_000 / 1000) {
            for e in s.nextBlock(frameCount: 1000) {
                frames.append(frame + Int64(e.frameOffset))
                statuses.append(e.message!.status)
            }
            frame += 1000
        }
        // Pass 1 from the start; each jump back (every 24 000 frames after 48 000) releases D4 first.
        #expect(frames == [0, 24_000, 24_500, 48_000, 48_000, 48_500, 72_000, 72_000, 72_500])
        #expect(statuses == [0x90, 0x80, 0x91, 0x81, 0x80, 0x91, 0x81, 0x80, 0x91])
        #expect(!s.isFinished)
    }

    @Test func fullBlocksDeliverLateButLoseNothing() {
        let events = (0..<10).map { (seconds: 0.0, message: MIDIMessage.controlChange(channel: 0, controller: 1, value: MIDIUInt7($0)!)) }
        let s = MIDISequencer(events: events, sampleRate: 48_000, maximumEventsPerBlock: 4)
        let counts = (0..<4).map { _ in s.nextBlock(frameCount: 64).count }
        #expect(counts == [4, 4, 2, 0])
        #expect(s.lateEventCount == 6)
        #expect(s.droppedEventCount == 0)
    }

    @Test func eventListInSecondsAndSysEx() throws {
        let sysex = try #require(MIDISystemExclusive(payload: [0x7D, 1, 2]))
        let s = MIDISequencer(events: [(0.5, .systemExclusive(sysex)), (0.25, .noteOn(channel: 0, note: 1, velocity: 1))],
                              sampleRate: 44_100)
        let played = play(s, blockSizes: [1000])
        #expect(played.map(\.frame) == [11_025, 22_050])
        #expect(played[1].message == nil)
        #expect(s.sysExPayloads == [[0x7D, 1, 2]])
    }

    @Test func splitSysExIsJoinedAndEscapedMessagesAreSent() {
        let track = MIDIFileTrack(events: [
            MIDIFileEvent(delta: 0, .sysEx([0x43, 0x12])),             // first packet, no F7
            MIDIFileEvent(delta: 96, .escape([0x00, 0x43])),           // continuation
            MIDIFileEvent(delta: 96, .escape([0x10, 0xF7])),           // last packet
            MIDIFileEvent(delta: 96, .escape([0xF2, 0x08, 0x00, 0xFA])), // song position 8, then Start
        ])
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(96), tracks: [track])
        let s = MIDISequencerTestsPlayer.play(MIDISequencer(file: file, sampleRate: 1000))
        #expect(s.payloads == [[0x43, 0x12, 0x00, 0x43, 0x10]])
        // 96 ticks = 0.5 s at 120 BPM = 500 frames at 1 kHz.
        #expect(s.events.map(\.frame) == [0, 1500, 1500])
        #expect(s.events.map { $0.message?.status } == [nil, 0xF2, 0xFA])
    }
}

enum MIDISequencerTestsPlayer {
    static func play(_ s: MIDISequencer) -> (events: [(frame: Int64, message: MIDIShortMessage?)], payloads: [[UInt8]]) {
        var out: [(Int64, MIDIShortMessage?)] = []
        var frame: Int64 = 0
        while !s.isFinished {
            for e in s.nextBlock(frameCount: 64) { out.append((frame + Int64(e.frameOffset), e.message)) }
            frame += 64
        }
        return (out, s.sysExPayloads)
    }
}
