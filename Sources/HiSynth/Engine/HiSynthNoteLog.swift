import Synchronization

/// The last `capacity` note events (on and off, from MIDI, commands and the song player), written by
/// the audio thread and read by a display thread without locks (spec §3: the piano roll keeps the
/// last 64 events).
///
/// Each slot is one atomic word (`HiSynthNoteEvent.packed`); the writer publishes its running count
/// with release ordering. A reader copies the newest events and re-checks the count, so an event the
/// writer overwrote while it copied is never returned (it retries, then returns what is consistent).
public final class HiSynthNoteLog: @unchecked Sendable {
    /// Events kept (the original keeps 64).
    public let capacity: Int
    private let slots: UnsafeMutablePointer<Atomic<UInt64>>
    private let written = Atomic<Int>(0)
    /// Events the writer has started writing (≥ `written`), stored before the slot.
    private let reserved = Atomic<Int>(0)

    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        slots = .allocate(capacity: self.capacity)
        for i in 0..<self.capacity { (slots + i).initialize(to: Atomic<UInt64>(0)) }
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Writer (audio thread, one at a time): appends an event. No allocation, no lock.
    func append(_ event: HiSynthNoteEvent) {
        let index = written.load(ordering: .relaxed)
        reserved.store(index &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        slots[index % capacity].store(event.packed, ordering: .relaxed)
        written.store(index &+ 1, ordering: .releasing)
    }

    /// Events appended since creation.
    public var totalWritten: Int { written.load(ordering: .acquiring) }

    /// Reader (any thread; allocates): the newest events still kept, oldest first.
    public func events() -> [HiSynthNoteEvent] {
        for _ in 0..<3 {
            let end = written.load(ordering: .acquiring)
            let count = min(end, capacity)
            var result: [HiSynthNoteEvent] = []
            result.reserveCapacity(count)
            for index in (end - count)..<end {
                result.append(HiSynthNoteEvent(packed: slots[index % capacity].load(ordering: .relaxed)))
            }
            atomicMemoryFence(ordering: .acquiring)
            let after = reserved.load(ordering: .relaxed)
            // Slots overwritten meanwhile are the oldest ones: drop them if the writer lapped the copy.
            let overwritten = max(0, after - end - (capacity - count))
            if overwritten == 0 { return result }
            if overwritten < count { return Array(result.dropFirst(overwritten)) }
        }
        return []
    }
}
