import Ariel
import Touchstone
import Testing

/// An engine that logs, for every command and MIDI message, the frame (counted from its first
/// rendered frame) at which it was applied.
private final class FrameLoggingEngine: AudioEngine {
    var rendered = 0
    var log: [(event: String, frame: Int)] = []
    func prepare(_ spec: ProcessSpec) {}
    func reset() {}
    func handle(_ command: Int) { log.append(("c\(command)", rendered)) }
    func handle(midi message: MIDIShortMessage) { log.append(("m\(message.data1)", rendered)) }
    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) { rendered += left.count }
    func snapshot() -> Int { 0 }
    func releaseAllNotes() {}
}

@Suite struct FrameScheduleTests {
    @Test func anEventLandsAtItsOffsetLateOnesAtZeroAndLaterOnesWait() {
        let start: UInt32 = 10_000
        #expect(FrameSchedule.place(due: 10_000, blockStart: start, frameCount: 256, horizon: 48_000) == .inBlock(offset: 0))
        #expect(FrameSchedule.place(due: 10_100, blockStart: start, frameCount: 256, horizon: 48_000) == .inBlock(offset: 100))
        #expect(FrameSchedule.place(due: 10_255, blockStart: start, frameCount: 256, horizon: 48_000) == .inBlock(offset: 255))
        #expect(FrameSchedule.place(due: 10_256, blockStart: start, frameCount: 256, horizon: 48_000) == .later)
        #expect(FrameSchedule.place(due: 9_999, blockStart: start, frameCount: 256, horizon: 48_000) == .late)
        #expect(FrameSchedule.place(due: 10_000 + 48_001, blockStart: start, frameCount: 256, horizon: 48_000) == .beyondHorizon)
        #expect(FrameSchedule.offset(due: 9_000, blockStart: start, frameCount: 256, horizon: 48_000) == 0)
        #expect(FrameSchedule.offset(due: 20_000, blockStart: start, frameCount: 256, horizon: 48_000) == nil)
    }

    /// JACK's 32-bit frame clock wraps (every 24.9 h at 48 kHz): differences are taken across the wrap.
    @Test func placementHoldsAcrossTheFrameClocksWrap() {
        let start = UInt32.max - 99  // the block spans the wrap: frames 2³²−100 … 155
        #expect(FrameSchedule.place(due: 5, blockStart: start, frameCount: 256, horizon: 48_000) == .inBlock(offset: 105))
        #expect(FrameSchedule.place(due: UInt32.max - 100, blockStart: start, frameCount: 256, horizon: 48_000) == .late)
        #expect(FrameSchedule.place(due: 156, blockStart: start, frameCount: 256, horizon: 48_000) == .later)
    }

    static func run(_ host: EngineHost<some AudioEngine>, start: UInt32?, frames: Int = 256, midi: [TimedMIDIMessage] = []) {
        var left = [Float](repeating: 0, count: frames), right = left
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                midi.withUnsafeBufferPointer { host.process(left: l, right: r, midi: $0, blockStart: start) }
            }
        }
    }

    /// Timed commands split the block at their frames, interleaved with MIDI; a command due in the next
    /// block waits there, holding back those sent after it (send order kept); a late one goes at 0 and is counted.
    @Test func timedCommandsAreAppliedAtTheirFramesInSendOrder() {
        let engine = FrameLoggingEngine()
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        let start: UInt32 = 1_000_000
        host.send(1, dueAt: start + 40)
        host.send(2, dueAt: start + 200)
        host.send(3, dueAt: start + 300)   // next block, offset 44
        host.send(4, dueAt: start + 100)   // sent after 3: waits for it, then at 3's frame
        host.send(5)                       // untimed: as soon as those before it went
        Self.run(host, start: start, midi: [TimedMIDIMessage(frameOffset: 120, message: MIDIShortMessage(status: 0x90, data1: 60, data2: 1)!)])
        #expect(engine.log.map(\.event) == ["c1", "m60", "c2"])
        #expect(engine.log.map(\.frame) == [40, 120, 200])
        #expect(engine.rendered == 256)
        Self.run(host, start: start + 256)
        #expect(engine.log.map(\.event) == ["c1", "m60", "c2", "c3", "c4", "c5"])
        #expect(engine.log.map(\.frame) == [40, 120, 200, 300, 300, 300])
        #expect(host.lateCommandCount == 1)  // 4 was due at 100
        host.send(6, dueAt: start)  // long past
        host.send(7, dueAt: start + 512 + 10 + 48_000 * 2)  // implausibly far ahead
        Self.run(host, start: start + 512)
        #expect(engine.log.suffix(2).map(\.event) == ["c6", "c7"])
        #expect(engine.log.suffix(2).map(\.frame) == [512, 512])
        #expect(host.lateCommandCount == 3)
        #expect(engine.rendered == 768)
    }

    /// Without a block start (offline renders) every command goes at offset 0, as before timing existed.
    @Test func withoutABlockStartTimedCommandsGoAtOnce() {
        let engine = FrameLoggingEngine()
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        host.send(1, dueAt: 5_000)
        host.send(2)
        Self.run(host, start: nil)
        #expect(engine.log.map(\.event) == ["c1", "c2"])
        #expect(engine.log.map(\.frame) == [0, 0])
        #expect(host.lateCommandCount == 0)
    }
}
