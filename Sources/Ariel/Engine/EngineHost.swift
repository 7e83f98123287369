import Touchstone

/// Runs an `AudioEngine` for a real-time or offline host: commands from any one control thread
/// reach the audio thread through a lock-free ring; snapshots come back through another.
///
/// A full command ring drops the command and counts it (`droppedCommandCount`); it never blocks.
/// Snapshots travel through a triple buffer, so the UI always reads the newest one.
/// MIDI messages are applied at their frame offsets by splitting the block, so timing is
/// sample-accurate. Flush-to-zero is enabled for the duration of each `process` call.
///
///     let host = EngineHost(engine: synth, spec: spec)
///     host.send(.setWaveform(.saw))                 // control thread
///     host.process(left: l, right: r, midi: events) // audio thread
///     host.latestSnapshot()                         // UI thread, ~30 Hz
public final class EngineHost<Engine: AudioEngine>: @unchecked Sendable {
    /// The engine; touch it directly only before rendering starts or from the audio thread.
    public let engine: Engine
    public private(set) var spec: ProcessSpec

    private let commands: SPSCRingBuffer<Engine.Command>
    private let snapshots: TripleBuffer<Engine.Snapshot?>
    private var snapshotInterval: Int
    private var framesSinceSnapshot = 0
    private let snapshotsPerSecond: Double
    /// Commands applied at most per block; the rest wait for the next block, so a burst of
    /// commands never makes one period long.
    public let maximumCommandsPerBlock: Int

    /// - Parameters:
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
    public func send(_ command: Engine.Command) -> Bool { commands.push(command) }

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

    /// Renders one block, applying queued commands first and MIDI at its frame offsets.
    /// `midi` must be sorted by offset; offsets outside the block are clamped into it.
    public func process(
        left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
        midi: UnsafeBufferPointer<TimedMIDIMessage> = UnsafeBufferPointer(start: nil, count: 0)
    ) {
        let frameCount = left.count
        precondition(right.count == frameCount && frameCount <= spec.maximumBlockSize, "block larger than prepared")
        let saved = FlushToZero.enable()
        defer { FlushToZero.restore(saved) }
        var applied = 0
        while applied < maximumCommandsPerBlock, let command = commands.pop() {
            engine.handle(command)
            applied += 1
        }
        var cursor = 0
        for event in midi {
            let offset = min(max(event.frameOffset, cursor), frameCount)
            if offset > cursor {
                renderSlice(left, right, cursor, offset)
                cursor = offset
            }
            engine.handle(midi: event.message)
        }
        if cursor < frameCount { renderSlice(left, right, cursor, frameCount) }
        framesSinceSnapshot += frameCount
        if framesSinceSnapshot >= snapshotInterval {
            framesSinceSnapshot = 0
            snapshots.write(engine.snapshot())
        }
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
