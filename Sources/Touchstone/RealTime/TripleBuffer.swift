import Synchronization

/// Hands the newest value from one writer thread to one reader thread without locks or waiting.
///
/// Three slots: the writer fills its back slot and swaps it with the middle one; the reader, when
/// the middle holds something new, swaps it with its front slot. Neither side ever waits, and the
/// reader always gets the most recent complete value (never a torn one). Used for audio → UI
/// snapshots: a UI that stops reading costs nothing, and when it reads again it sees the latest
/// state, not a backlog.
///
/// - Important: one writer thread and one reader thread. Writing a value must not allocate on the
///   audio thread, so snapshot types hold fixed-size fields, not arrays.
public final class TripleBuffer<Value>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Value>
    /// Index of the middle slot, with `freshBit` set when it holds a value the reader has not taken.
    private let middle: Atomic<Int>
    private var back = 0  // writer-owned
    private var front = 2  // reader-owned
    private static var freshBit: Int { 4 }

    /// Allocates the three slots, all holding `initial`. Call off the audio thread.
    public init(initial: Value) {
        slots = UnsafeMutablePointer<Value>.allocate(capacity: 3)
        slots.initialize(repeating: initial, count: 3)
        middle = Atomic(1)
    }

    deinit {
        slots.deinitialize(count: 3)
        slots.deallocate()
    }

    /// Writer only. Publishes `value` as the newest. Never blocks or allocates.
    public func write(_ value: Value) {
        slots[back] = value
        let previous = middle.exchange(back | Self.freshBit, ordering: .acquiringAndReleasing)
        back = previous & 3
    }

    /// Reader only. The newest published value, and whether it is new since the last read.
    public func read() -> (value: Value, isNew: Bool) {
        let isNew = middle.load(ordering: .relaxed) & Self.freshBit != 0
        if isNew {
            let previous = middle.exchange(front, ordering: .acquiringAndReleasing)
            front = previous & 3
        }
        return (slots[front], isNew)
    }
}
