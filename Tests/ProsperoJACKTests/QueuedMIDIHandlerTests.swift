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
