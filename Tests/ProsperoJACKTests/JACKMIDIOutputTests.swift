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
        var tooBig = JACKMIDIOutputStorage(eventCapacity: 4, byteCapacity: 4).makeOutput(frameCount: 8)
        let fitted = sysex.withUnsafeBufferPointer { tooBig.send(bytes: $0, atFrame: 0) }
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
