import AllocationCounting
import Ariel
import ProsperoJACK
import Testing

/// Records what a QueuedMIDIHandler hands its audio side, and writes a marker into the audio.
final class RecordingRenderer: QueuedMIDIAudioRenderer {
    var received: [TimedMIDIMessage] = []
    var preparedRate = 0.0
    func prepare(sampleRate: Double, maximumFrames: Int) {
        preparedRate = sampleRate
        received.reserveCapacity(1024)
    }
    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
                midi: UnsafeBufferPointer<TimedMIDIMessage>) {
        for m in midi { received.append(m) }
        left[0] = 0.5
    }
}

/// The control-thread → JACK ring of `prospero hands`, without a server.
@Suite struct QueuedMIDIHandlerTests {
    func period(_ handler: QueuedMIDIHandler, _ storage: JACKMIDIOutputStorage, frames: Int = 64) -> [[UInt8]] {
        var left = [Float](repeating: 0, count: frames), right = left
        var out = storage.makeOutput(frameCount: frames)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                handler.process(frameCount: frames, left: l.baseAddress!, right: r.baseAddress!, midiIn: .empty, midiOut: &out)
            }
        }
        var bytes: [[UInt8]] = []
        _ = out.flush { frame, b in
            #expect(frame == 0)
            bytes.append(Array(b))
            return true
        }
        return bytes
    }

    @Test func messagesOfEveryLengthGoOutInOrderAtTheStartOfThePeriod() {
        let handler = QueuedMIDIHandler()
        let storage = JACKMIDIOutputStorage()
        handler.prepare(sampleRate: 48_000, maximumFrames: 64)
        for m in [MIDIShortMessage(status: 0xB1, data1: 74, data2: 20)!, MIDIShortMessage(status: 0xD1, data1: 100)!,
                  MIDIShortMessage(status: 0x91, data1: 60, data2: 90)!, MIDIShortMessage(status: 0xF8)!] {
            #expect(handler.send(m))
        }
        #expect(period(handler, storage) == [[0xB1, 74, 20], [0xD1, 100], [0x91, 60, 90], [0xF8]])
        #expect(period(handler, storage).isEmpty)
    }

    @Test func theSynthGetsTheSameMIDIAndMIDIOutCanBeOff() {
        let renderer = RecordingRenderer()
        let handler = QueuedMIDIHandler(sendsMIDI: false, audio: renderer)
        handler.prepare(sampleRate: 44_100, maximumFrames: 64)
        #expect(renderer.preparedRate == 44_100)
        handler.send(MIDIShortMessage(status: 0x90, data1: 64, data2: 100)!)
        #expect(period(QueuedMIDIHandler(), JACKMIDIOutputStorage()).isEmpty)
        #expect(period(handler, JACKMIDIOutputStorage()).isEmpty)
        #expect(renderer.received == [TimedMIDIMessage(frameOffset: 0, message: MIDIShortMessage(status: 0x90, data1: 64, data2: 100)!)])
    }

    @Test func aFullRingDropsAndCounts() {
        let handler = QueuedMIDIHandler(capacity: 4)
        let note = MIDIShortMessage(status: 0x90, data1: 60, data2: 1)!
        var accepted = 0
        for _ in 0..<10 where handler.send(note) { accepted += 1 }
        #expect(accepted == 4)
        #expect(handler.droppedCount == 6)
        #expect(period(handler, JACKMIDIOutputStorage()).count == 4)
    }

    @Test(.enabled(if: !AllocationCounter.isDisabledBySanitizer))
    func aPeriodAllocatesNothing() throws {
        try #require(AllocationCounter.isAvailable)
        let renderer = RecordingRenderer()
        let handler = QueuedMIDIHandler(audio: renderer)
        handler.prepare(sampleRate: 48_000, maximumFrames: 256)
        let storage = JACKMIDIOutputStorage()
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 256), right = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { left.deallocate(); right.deallocate() }
        func once() {
            for n in 0..<32 { handler.send(MIDIShortMessage(status: 0x90, data1: UInt8(n), data2: 64)!) }
            var out = storage.makeOutput(frameCount: 256)
            handler.process(frameCount: 256, left: left, right: right, midiIn: .empty, midiOut: &out)
        }
        once()
        renderer.received.removeAll(keepingCapacity: true)
        #expect(AllocationCounter.allocations { once() } == 0)
    }
}

/// Messages stamped with a due JACK frame leave `midi_out` and reach the synth at that frame's offset.
@Suite struct QueuedMIDIHandlerTimingTests {
    /// One period starting at frame time `start`: what went to midi_out (frame, bytes) and to the renderer.
    func period(_ handler: QueuedMIDIHandler, start: UInt32, frames: Int = 256) -> [TimedMIDI] {
        let storage = JACKMIDIOutputStorage()
        var left = [Float](repeating: 0, count: frames), right = left
        var out = storage.makeOutput(frameCount: frames)
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                handler.process(frameCount: frames, left: l.baseAddress!, right: r.baseAddress!,
                                midiIn: .empty(periodStartFrame: start), midiOut: &out)
            }
        }
        var sent: [TimedMIDI] = []
        _ = out.flush { frame, b in
            sent.append(TimedMIDI(frame: Int(frame), bytes: Array(b)))
            return true
        }
        return sent
    }

    @Test func timedMessagesLeaveAtTheirOffsetsInSendOrderAndLateOnesAtZero() {
        let renderer = RecordingRenderer()
        let handler = QueuedMIDIHandler(audio: renderer)
        handler.prepare(sampleRate: 48_000, maximumFrames: 256)
        let start: UInt32 = 77_000
        let on = MIDIShortMessage(status: 0x90, data1: 60, data2: 100)!
        let cc = MIDIShortMessage(status: 0xB0, data1: 74, data2: 10)!
        let off = MIDIShortMessage(status: 0x80, data1: 60, data2: 0)!
        handler.send(cc, dueAt: start + 17)
        handler.send(on, dueAt: start + 17)
        handler.send(off, dueAt: start + 300)           // next period, offset 44
        handler.send(cc, dueAt: start + 100)            // sent after the note-off: waits for it
        #expect(period(handler, start: start) == [TimedMIDI(frame: 17, bytes: cc.bytes), TimedMIDI(frame: 17, bytes: on.bytes)])
        #expect(renderer.received == [TimedMIDIMessage(frameOffset: 17, message: cc), TimedMIDIMessage(frameOffset: 17, message: on)])
        #expect(period(handler, start: start + 256) == [TimedMIDI(frame: 44, bytes: off.bytes), TimedMIDI(frame: 44, bytes: cc.bytes)])
        #expect(handler.lateCount == 1)
        handler.send(on, dueAt: start)                  // long past: at 0, counted
        handler.send(off)                               // untimed: at once
        #expect(period(handler, start: start + 512) == [TimedMIDI(frame: 0, bytes: on.bytes), TimedMIDI(frame: 0, bytes: off.bytes)])
        #expect(handler.lateCount == 2)
    }
}
