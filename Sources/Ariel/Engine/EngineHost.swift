import Synchronization
import Touchstone

/// Runs an `AudioEngine` for a real-time or offline host: commands from any one control thread
/// reach the audio thread through a lock-free ring; snapshots come back through another.
///
/// A full command ring drops the command and counts it (`droppedCommandCount`); it never blocks.
/// Snapshots travel through a triple buffer, so the UI always reads the newest one.
/// MIDI messages are applied at their frame offsets by splitting the block, so timing is
/// sample-accurate. A command sent with a due frame time (``send(_:dueAt:)``, live input stamped
/// on arrival) is applied at its offset in the block that contains that frame, also by splitting
/// the block; commands keep their send order, so one due later holds back those sent after it.
/// Flush-to-zero is enabled for the duration of each `process` call.
///
///     let host = EngineHost(engine: synth, spec: spec)
///     host.send(.setWaveform(.saw))                 // control thread
///     host.process(left: l, right: r, midi: events) // audio thread
///     host.latestSnapshot()                         // UI thread, ~30 Hz
public final class EngineHost<Engine: AudioEngine>: @unchecked Sendable {
    /// The engine; touch it directly only before rendering starts or from the audio thread.
    public let engine: Engine
    public private(set) var spec: ProcessSpec

    /// A command and the frame time it is due at (nil: at the start of the next block).
    struct Scheduled {
        var command: Engine.Command
        var due: UInt32?
    }

    private let commands: SPSCRingBuffer<Scheduled>
    /// The oldest command, taken from the ring but due after the current block.
    private var waiting: Scheduled?
    private let late = Atomic<Int>(0)
    /// Input timing margins (``latestTimingMargin``), published by the audio thread.
    private let timedEvents = Atomic<Int>(0)
    private let latestMargin = Atomic<Int>(0)
    private let smallestMargin = Atomic<Int>(.max)
    /// Audio thread: the due frame of the latest timed event seen, and the smallest margin so far.
    private var lastSeenDue: UInt32?
    private var smallestMarginSeen = Int.max
    private let snapshots: TripleBuffer<Engine.Snapshot?>
    private var snapshotInterval: Int
    private var framesSinceSnapshot = 0
    private let snapshotsPerSecond: Double
    /// Commands applied at most per block; the rest wait for the next block, so a burst of
    /// commands never makes one period long.
    public let maximumCommandsPerBlock: Int

    /// - Parameters:
    ///   - engine: what renders; prepared here for `spec`, then touched only by the audio thread.
    ///   - spec: the sample rate and the largest block ``process(left:right:midi:blockStart:)`` is given.
    ///   - commandCapacity: commands that can wait between two blocks (rounded up to a power of two).
    ///   - snapshotsPerSecond: how often the audio thread publishes display state, 1…240 Hz.
    ///   - maximumCommandsPerBlock: commands applied per block at most (≥ 1); leftovers wait a block.
    public init(engine: Engine, spec: ProcessSpec, commandCapacity: Int = 1024, snapshotsPerSecond: Double = 30,
                maximumCommandsPerBlock: Int = 128) {
        self.engine = engine
        self.maximumCommandsPerBlock = max(1, maximumCommandsPerBlock)
        self.spec = spec
        self.snapshotsPerSecond = snapshotsPerSecond
        commands = SPSCRingBuffer(minimumCapacity: commandCapacity)
        snapshots = TripleBuffer(initial: nil)
        snapshotInterval = max(1, Int(spec.sampleRate / snapshotsPerSecond))
        engine.prepare(spec)
    }

    /// Re-prepares for a new sample rate or block size. Not on the audio thread while it renders.
    public func prepare(_ newSpec: ProcessSpec) {
        spec = newSpec
        snapshotInterval = max(1, Int(newSpec.sampleRate / snapshotsPerSecond))
        engine.prepare(newSpec)
    }

    // MARK: Control side (one producer thread)

    /// Queues a command for the audio thread. Returns false, and counts a drop, when the ring is full.
    @discardableResult
    public func send(_ command: Engine.Command) -> Bool { commands.push(Scheduled(command: command, due: nil)) }

    /// Queues a command due at frame time `due` (the audio server's frame clock, see ``FrameSchedule``):
    /// applied at that frame's offset in the block that contains it, at offset 0 (and counted in
    /// ``lateCommandCount``) when that block has passed. Blocks rendered without a start frame apply it at once.
    @discardableResult
    public func send(_ command: Engine.Command, dueAt due: UInt32?) -> Bool { commands.push(Scheduled(command: command, due: due)) }

    /// Timed commands applied at offset 0 because their frame had passed (or was implausibly far ahead).
    public var lateCommandCount: Int { late.load(ordering: .relaxed) }

    /// Timed events seen so far: runs of timed commands sharing one due frame (a live input frame's
    /// commands), each measured once, when the audio thread first takes its first command from the ring.
    public var timedEventCount: Int { timedEvents.load(ordering: .acquiring) }

    /// The latest timed event's margin, in frames: from the start of the block that first took it from the
    /// ring to its due frame. 0 … period − 1 is the least an event can have and still be on time; negative,
    /// it was late by that many frames. An event that arrived `x` frames before a period's start needs an
    /// input delay of `x` plus the frames its thread took to send it: `delay − margin`
    /// (``FrameSchedule``; the input delay is chosen from these, see docs/latency.md).
    public var latestTimingMargin: Int { latestMargin.load(ordering: .relaxed) }

    /// The smallest margin of any timed event so far (nil before the first): negative when one was late.
    public var smallestTimingMargin: Int? {
        let value = smallestMargin.load(ordering: .relaxed)
        return value == .max ? nil : value
    }

    /// Commands refused because the ring was full.
    public var droppedCommandCount: Int { commands.droppedCount }

    // MARK: UI side (one consumer thread)

    /// The newest snapshot the audio thread has published (nil before the first), and whether it is
    /// new since the last call.
    public func latestSnapshot() -> (snapshot: Engine.Snapshot?, isNew: Bool) {
        let (value, isNew) = snapshots.read()
        return (value, isNew)
    }

    // MARK: Audio side

    /// Renders one block, applying queued commands and MIDI at their frame offsets.
    /// - Parameters:
    ///   - left: the block's left channel, written over (at most the spec's maximum block size frames).
    ///   - right: the right channel, as many frames as `left`.
    ///   - midi: the block's MIDI, sorted by offset; offsets outside the block are clamped into it.
    ///   - blockStart: the frame time of the block's first frame, for commands sent with a
    ///     due frame (nil: every command at offset 0). At most ``maximumCommandsPerBlock`` commands are
    ///     applied; the rest, and those due later, wait in order. A timed command may wait at most one
    ///     second of frames; one due further ahead is applied at once and counted as late.
    public func process(
        left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
        midi: UnsafeBufferPointer<TimedMIDIMessage> = UnsafeBufferPointer(start: nil, count: 0),
        blockStart: UInt32? = nil
    ) {
        let frameCount = left.count
        precondition(right.count == frameCount && frameCount <= spec.maximumBlockSize, "block larger than prepared")
        let saved = FlushToZero.enable()
        defer { FlushToZero.restore(saved) }
        let horizon = Int(spec.sampleRate)
        var applied = 0
        var lateNow = 0
        var cursor = 0
        var midiIndex = 0
        while true {
            // The next command's offset (Int.max: none this block), then the next MIDI message's.
            var commandOffset = Int.max
            var commandIsLate = false
            if applied < maximumCommandsPerBlock {
                if waiting == nil {
                    waiting = commands.pop()
                    if let due = waiting?.due, let blockStart, due != lastSeenDue { noteMargin(due: due, blockStart: blockStart) }
                }
                if let next = waiting {
                    if let due = next.due, let blockStart {
                        switch FrameSchedule.place(due: due, blockStart: blockStart, frameCount: frameCount, horizon: horizon) {
                        case .inBlock(let offset): commandOffset = offset
                        case .late, .beyondHorizon: commandOffset = 0; commandIsLate = true
                        case .later: break
                        }
                    } else {
                        commandOffset = 0
                    }
                }
            }
            let midiOffset = midiIndex < midi.count ? midi[midiIndex].frameOffset : Int.max
            if commandOffset == Int.max && midiOffset == Int.max { break }
            // Send order is kept: nothing goes before the cursor. A command goes before MIDI at the same frame.
            let offset = min(max(min(commandOffset, midiOffset), cursor), frameCount)
            if offset > cursor {
                renderSlice(left, right, cursor, offset)
                cursor = offset
            }
            if commandOffset <= midiOffset, let next = waiting.take() {
                engine.handle(next.command)
                applied += 1
                if commandIsLate { lateNow += 1 }
            } else {
                engine.handle(midi: midi[midiIndex].message)
                midiIndex += 1
            }
        }
        if lateNow > 0 { late.add(lateNow, ordering: .relaxed) }
        if cursor < frameCount { renderSlice(left, right, cursor, frameCount) }
        framesSinceSnapshot += frameCount
        if framesSinceSnapshot >= snapshotInterval {
            framesSinceSnapshot = 0
            snapshots.write(engine.snapshot())
        }
    }

    /// Audio thread: the margin of a timed event whose first command was just taken from the ring.
    @inline(__always)
    private func noteMargin(due: UInt32, blockStart: UInt32) {
        lastSeenDue = due
        let margin = Int(Int32(bitPattern: due &- blockStart))
        latestMargin.store(margin, ordering: .relaxed)
        if margin < smallestMarginSeen {
            smallestMarginSeen = margin
            smallestMargin.store(margin, ordering: .relaxed)
        }
        timedEvents.add(1, ordering: .releasing)
    }

    @inline(__always)
    private func renderSlice(
        _ left: UnsafeMutableBufferPointer<Float>, _ right: UnsafeMutableBufferPointer<Float>, _ from: Int, _ to: Int
    ) {
        engine.render(
            left: UnsafeMutableBufferPointer(rebasing: left[from..<to]),
            right: UnsafeMutableBufferPointer(rebasing: right[from..<to]))
    }
}
