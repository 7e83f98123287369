import Ariel
import Touchstone

/// An engine that renders silence and keeps, for every command, the frame of its stream at which the host applied
/// it: the blocks it rendered so far plus the offset inside the current one. Storage sized at `init`, so the audio
/// side stays free of allocation as in a live engine.
final class FrameRecordingEngine: AudioEngine {
    typealias Command = Int
    typealias Snapshot = Int

    /// The stream's frame time at the start of the block being rendered, set by the simulation before each block.
    var blockStart: UInt32 = 0
    private var offset = 0
    /// Per command (its number), the frame time it was applied at; nil while not applied.
    private(set) var applied: [UInt32?]
    /// Command numbers in the order they were applied.
    private(set) var order: [Int] = []

    init(commands: Int) {
        applied = Array(repeating: nil, count: commands)
        order.reserveCapacity(commands)
    }

    func prepare(_ spec: ProcessSpec) {}
    func reset() {}
    func handle(_ command: Int) {
        applied[command] = blockStart &+ UInt32(offset)
        order.append(command)
    }
    func handle(midi message: MIDIShortMessage) {}
    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        left.update(repeating: 0)
        right.update(repeating: 0)
        offset += left.count
    }
    func snapshot() -> Int { order.count }
    func releaseAllNotes() {}

    /// The simulation starts a block at frame time `frame`.
    func begin(block frame: UInt32) {
        blockStart = frame
        offset = 0
    }
}
