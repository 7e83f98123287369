import Synchronization

/// A bounded, lock-free, wait-free single-producer single-consumer queue.
///
/// The control thread pushes commands, the audio thread pops them (or the reverse
/// for audio → UI events). Neither side ever blocks: a push into a full buffer
/// returns `false` and counts the drop, a pop from an empty buffer returns `nil`.
///
/// - Capacity is a power of two fixed at initialisation; slots are allocated once,
///   so `push` and `pop` never allocate.
/// - Indices are free-running `Int` counters (wrapping with `&+`) masked into the
///   storage, so `tail - head` is the fill level even across wrap-around.
/// - Ordering: the producer writes the slot and then publishes `tail` with
///   release; the consumer reads `tail` with acquire before reading the slot, and
///   publishes `head` with release after moving the element out, which the
///   producer acquires before reusing the slot.
///
/// - Important: Exactly one thread may push and exactly one thread may pop at any
///   time (they may be the same thread). That discipline is what makes the type
///   `@unchecked Sendable`; two concurrent producers or consumers corrupt it.
///
///     let commands = SPSCRingBuffer<SynthCommand>(minimumCapacity: 256)
///     _ = commands.push(.noteOn(60))          // control thread
///     while let command = commands.pop() { … } // audio thread
public final class SPSCRingBuffer<Element> {
    /// Number of slots (a power of two ≥ the requested minimum).
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let storage: UnsafeMutablePointer<Element>

    /// Next slot to read; written only by the consumer.
    @usableFromInline let head = Atomic<Int>(0)
    /// Next slot to write; written only by the producer.
    @usableFromInline let tail = Atomic<Int>(0)
    @usableFromInline let dropped = Atomic<Int>(0)

    /// Side-local caches, one cache line apart: `[0]` is the producer's last seen
    /// `head`, `[cacheLineStride]` the consumer's last seen `tail`, so most calls skip
    /// the cross-core load. Raw memory rather than class `var`s, which would pay
    /// dynamic exclusivity checks on every access.
    @usableFromInline let sideCaches: UnsafeMutablePointer<Int>
    @usableFromInline static var cacheLineStride: Int { 16 }

    /// Creates a buffer of at least `minimumCapacity` slots (rounded up to a power
    /// of two, at least 2). Allocates; call off the audio thread.
    public init(minimumCapacity: Int) {
        precondition(minimumCapacity > 0, "an SPSC ring needs at least one slot")
        var size = 2
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = UnsafeMutablePointer<Element>.allocate(capacity: size)
        sideCaches = UnsafeMutablePointer<Int>.allocate(capacity: 2 * Self.cacheLineStride)
        sideCaches.initialize(repeating: 0, count: 2 * Self.cacheLineStride)
    }

    deinit {
        // Elements between head and tail are still initialised.
        var index = head.load(ordering: .relaxed)
        let end = tail.load(ordering: .relaxed)
        while index != end {
            (storage + (index & mask)).deinitialize(count: 1)
            index &+= 1
        }
        storage.deallocate()
        sideCaches.deallocate()
    }

    /// Producer only. Appends `element` if there is room.
    ///
    /// - Returns: `true` if queued; `false` if the buffer was full, in which case
    ///   the element is dropped and `droppedCount` grows by one. Never blocks or allocates.
    @inlinable @discardableResult
    public func push(_ element: consuming Element) -> Bool {
        let writeIndex = tail.load(ordering: .relaxed)
        if writeIndex &- sideCaches[0] == capacity {
            sideCaches[0] = head.load(ordering: .acquiring)
            if writeIndex &- sideCaches[0] == capacity {
                dropped.wrappingAdd(1, ordering: .relaxed)
                return false
            }
        }
        (storage + (writeIndex & mask)).initialize(to: element)
        tail.store(writeIndex &+ 1, ordering: .releasing)
        return true
    }

    /// Consumer only. Removes and returns the oldest element, or `nil` when empty.
    /// Never blocks or allocates.
    @inlinable
    public func pop() -> Element? {
        let readIndex = head.load(ordering: .relaxed)
        let consumerCache = sideCaches + Self.cacheLineStride
        if readIndex == consumerCache.pointee {
            consumerCache.pointee = tail.load(ordering: .acquiring)
            if readIndex == consumerCache.pointee { return nil }
        }
        let element = (storage + (readIndex & mask)).move()
        head.store(readIndex &+ 1, ordering: .releasing)
        return element
    }

    /// Consumer only. Pops every element queued at the time of the call, in order,
    /// handing each to `body` (a non-escaping closure: no allocation).
    /// - Returns: how many elements were drained.
    @inlinable @discardableResult
    public func drain(_ body: (consuming Element) -> Void) -> Int {
        var drained = 0
        while let element = pop() {
            body(element)
            drained &+= 1
        }
        return drained
    }

    /// Consumer only. Drops the `count` oldest queued elements (or every queued one, when fewer are queued) in one
    /// step: one release store of `head`, where popping them would publish `head` once per element. A reader that
    /// wants only the newest part of a backlog (a meter tap nobody looks at) skips the rest this way.
    /// Never blocks or allocates; a zero or negative `count` drops nothing.
    /// - Returns: how many elements were dropped.
    @inlinable @discardableResult
    public func discard(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        let readIndex = head.load(ordering: .relaxed)
        let writeIndex = tail.load(ordering: .acquiring)
        sideCaches[Self.cacheLineStride] = writeIndex
        let dropping = min(count, writeIndex &- readIndex)
        guard dropping > 0 else { return 0 }
        // Trivial elements (samples, numbers) hold nothing to release: the slots are simply given back.
        if !_isPOD(Element.self) {
            var index = readIndex
            for _ in 0..<dropping {
                (storage + (index & mask)).deinitialize(count: 1)
                index &+= 1
            }
        }
        head.store(readIndex &+ dropping, ordering: .releasing)
        return dropping
    }

    /// Pushes refused because the buffer was full, since creation. Any thread.
    @inlinable public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Elements queued right now. Exact when called from the producer or consumer
    /// while the other side is idle; otherwise a snapshot that may be stale.
    @inlinable public var count: Int {
        let readIndex = head.load(ordering: .acquiring)
        let writeIndex = tail.load(ordering: .acquiring)
        return max(0, min(capacity, writeIndex &- readIndex))
    }

    /// Whether `count` is 0 (same caveat as `count`).
    @inlinable public var isEmpty: Bool { count == 0 }
}

extension SPSCRingBuffer: @unchecked Sendable where Element: Sendable {}
