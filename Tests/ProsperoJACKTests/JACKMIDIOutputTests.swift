import ProsperoJACK
import Testing

/// The staging, ordering and note bookkeeping of JACKMIDIOutput, without a server.
@Suite struct JACKMIDIOutputTests {
    func flushed(_ output: JACKMIDIOutput) -> [TimedMIDI] {
        var result: [TimedMIDI] = []
        _ = output.flush { frame, bytes in
            result.append(TimedMIDI(frame: Int(frame), bytes: Array(bytes)))
            return true
        }
        return result
    }

    @Test func sortsByFrameAndKeepsSendOrderWithinAFrame() {
        let storage = JACKMIDIOutputStorage()
        var out = storage.makeOutput(frameCount: 64)
        out.send(0xB0, 7, 100, atFrame: 40)
        out.send(0x90, 60, 100, atFrame: 3)
        out.send(0x80, 60, 0, atFrame: 40)
        out.send(0xF8, atFrame: 0)
        out.send(0xC1, 5, atFrame: 3)
        #expect(flushed(out) == [
            TimedMIDI(frame: 0, bytes: [0xF8]),
            TimedMIDI(frame: 3, bytes: [0x90, 60, 100]),
            TimedMIDI(frame: 3, bytes: [0xC1, 5]),
            TimedMIDI(frame: 40, bytes: [0xB0, 7, 100]),
            TimedMIDI(frame: 40, bytes: [0x80, 60, 0]),
        ])
        #expect(out.droppedCount == 0)
    }

    /// 2000 messages in reverse and shuffled frame order (many sharing a frame): the flush is the
    /// stable order by frame (send order within a frame), computed here by ranking (frame, send index).
    @Test(arguments: [0, 1, 2])
    func aFullPeriodInAnyOrderIsSortedStably(seed: Int) {
        let storage = JACKMIDIOutputStorage(eventCapacity: 2048, byteCapacity: 32_768)
        var out = storage.makeOutput(frameCount: 1024)
        var state = UInt64(seed) &* 6364136223846793005 &+ 1442695040888963407
        var sent: [(frame: Int, index: Int, bytes: [UInt8])] = []
        for index in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let frame = seed == 0 ? 1023 - index / 2 : Int(state >> 33) % 300  // reverse, or 300 frames shared
            let bytes: [UInt8] = [0xB0 | UInt8(index % 16), UInt8((index / 16) % 128), UInt8(index % 128)]
            out.send(bytes[0], bytes[1], bytes[2], atFrame: frame)
            sent.append((frame, index, bytes))
        }
        let expected = sent.sorted { ($0.frame, $0.index) < ($1.frame, $1.index) }.map { TimedMIDI(frame: $0.frame, bytes: $0.bytes) }
        #expect(flushed(out) == expected)
        #expect(out.droppedCount == 0)
    }

    @Test func dropsAndCountsFramesOutsideThePeriodAndOverflow() {
        let storage = JACKMIDIOutputStorage(eventCapacity: 2, byteCapacity: 64)
        var out = storage.makeOutput(frameCount: 16)
        let accepted = [
            out.send(0x90, 60, 1, atFrame: 16),
            out.send(0x90, 60, 1, atFrame: -1),
            out.send(0x90, 61, 1, atFrame: 0),
            out.send(0x90, 62, 1, atFrame: 15),
            out.send(0x90, 63, 1, atFrame: 1),
        ]
        #expect(accepted == [false, false, true, true, false])
        #expect(out.droppedCount == 3)
        #expect(out.count == 2)
        // Dropped note-ons are not counted as sounding.
        #expect(out.soundingNoteCount == 2)
    }

    @Test func sysexTravelsWhole() {
        let storage = JACKMIDIOutputStorage()
        var out = storage.makeOutput(frameCount: 8)
        let sysex: [UInt8] = [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        sysex.withUnsafeBufferPointer { _ = out.send(bytes: $0, atFrame: 2) }
        #expect(flushed(out) == [TimedMIDI(frame: 2, bytes: sysex)])
        // An output does not keep its storage alive (the audio thread takes no reference): the storage is held here.
        let small = JACKMIDIOutputStorage(eventCapacity: 4, byteCapacity: 4)
        var tooBig = small.makeOutput(frameCount: 8)
        let fitted = withExtendedLifetime(small) { sysex.withUnsafeBufferPointer { tooBig.send(bytes: $0, atFrame: 0) } }
        #expect(!fitted)
        #expect(tooBig.droppedCount == 1)
    }

    @Test func releasesEverySoundingNoteAndResetsUsedChannelsAcrossPeriods() {
        let storage = JACKMIDIOutputStorage()
        var first = storage.makeOutput(frameCount: 32)
        first.send(0x90, 60, 100, atFrame: 0)
        first.send(0x90, 127, 1, atFrame: 1)   // second word of channel 0
        first.send(0x93, 64, 90, atFrame: 2)
        first.send(0x93, 64, 0, atFrame: 3)    // note-on velocity 0 is a note-off
        first.send(0x9F, 0, 80, atFrame: 4)
        first.send(0xE5, 0, 64, atFrame: 5)    // pitch bend marks channel 5 used
        #expect(first.soundingNoteCount == 3)
        _ = flushed(first)

        var last = storage.makeOutput(frameCount: 32)
        last.releaseAllSoundingNotes(atFrame: 31)
        #expect(flushed(last) == [
            TimedMIDI(frame: 31, bytes: [0x80, 60, 64]),
            TimedMIDI(frame: 31, bytes: [0x80, 127, 64]),
            TimedMIDI(frame: 31, bytes: [0xB0, 123, 0]),
            TimedMIDI(frame: 31, bytes: [0xB3, 123, 0]),
            TimedMIDI(frame: 31, bytes: [0xB5, 123, 0]),
            TimedMIDI(frame: 31, bytes: [0x8F, 0, 64]),
            TimedMIDI(frame: 31, bytes: [0xBF, 123, 0]),
        ])
        #expect(last.soundingNoteCount == 0)
        // Nothing is left to release.
        var again = storage.makeOutput(frameCount: 32)
        again.releaseAllSoundingNotes(atFrame: 0)
        #expect(flushed(again).isEmpty)
    }

    @Test func allNotesOffSentByTheHandlerIsNotRepeated() {
        let storage = JACKMIDIOutputStorage()
        var out = storage.makeOutput(frameCount: 8)
        out.send(0x91, 50, 100, atFrame: 0)
        out.send(0xB1, 123, 0, atFrame: 1)
        #expect(out.soundingNoteCount == 0)
        out.releaseAllSoundingNotes(atFrame: 7)
        #expect(out.count == 2)
    }
}
