import Synchronization

/// Whole encoded frames of one fixed size from one producer thread to one consumer thread, lock-free:
/// `slots` slots allocated at `init`, each frame copied in and out in one piece (a `memcpy`, not a loop over
/// bytes with an atomic per byte). The producer (browser audio's render thread) allocates nothing and never
/// waits: a frame that finds no free slot is refused and the caller counts it.
final class StudioFrameRing: @unchecked Sendable {
    let frameBytes: Int
    let slots: Int
    private let storage: UnsafeMutableRawBufferPointer
    /// Frames written and read since the start (monotonic; the slot is the count modulo `slots`).
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    init(frameBytes: Int, slots: Int) {
        precondition(frameBytes > 0 && slots > 0)
        self.frameBytes = frameBytes
        self.slots = slots
        storage = .allocate(byteCount: frameBytes * slots, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { storage.deallocate() }

    /// Frames waiting for the consumer.
    var count: Int { written.load(ordering: .acquiring) - read.load(ordering: .acquiring) }

    /// Producer: copies `frame` (exactly ``frameBytes`` long) into the next slot; false when every slot is full.
    /// No allocation, no lock.
    func push(_ frame: UnsafeRawBufferPointer) -> Bool {
        precondition(frame.count == frameBytes)
        let w = written.load(ordering: .relaxed)
        guard w - read.load(ordering: .acquiring) < slots else { return false }
        let slot = UnsafeMutableRawBufferPointer(rebasing: storage[(w % slots) * frameBytes ..< (w % slots + 1) * frameBytes])
        slot.copyMemory(from: frame)
        written.store(w + 1, ordering: .releasing)
        return true
    }

    /// Consumer: hands each waiting frame, oldest first, to `body` (valid only during the call), then frees its slot.
    /// Returns how many it handed.
    @discardableResult
    func drain(_ body: (UnsafeRawBufferPointer) -> Void) -> Int {
        let r = read.load(ordering: .relaxed)
        let w = written.load(ordering: .acquiring)
        for n in r ..< w {
            let start = (n % slots) * frameBytes
            body(UnsafeRawBufferPointer(rebasing: storage[start ..< start + frameBytes]))
            read.store(n + 1, ordering: .releasing)
        }
        return w - r
    }
}
