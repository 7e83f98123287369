import Synchronization

/// A lock-free history of the most recent audio samples for display (oscilloscope,
/// waveform HUD): the audio thread writes blocks, a UI thread reads the latest N.
///
/// Every slot is an `Atomic<UInt32>` holding a `Float`'s bit pattern and accessed
/// with relaxed ordering (a plain load/store on x86_64 and arm64), so concurrent
/// reading and writing is race-free by the Swift memory model and clean under
/// ThreadSanitizer. The writer publishes its running sample count with release;
/// the reader acquires it.
///
/// Torn reads: while the reader copies, the writer may overwrite the oldest slots
/// the reader has not copied yet. The reader re-checks the write count afterwards:
/// the copy is consistent when the writer (including a block it is still writing)
/// advanced by at most `capacity − count` samples meanwhile. Otherwise it retries, at most `maximumReadAttempts` times,
/// and then reports the copy as torn. With the default capacity (16× the display
/// length) a UI reading at 30 Hz is never torn in practice; a torn copy contains
/// only valid samples from two instants at most `capacity` samples apart.
///
/// One writer thread at a time; any number of reader threads.
public final class SampleRingBuffer: @unchecked Sendable {
    /// Number of samples kept (a power of two).
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt32>>
    /// Samples completely written since creation (free-running), published with release.
    @usableFromInline let written = Atomic<Int>(0)
    /// Samples the writer has started writing (≥ `written`); stored before the slots
    /// so a reader can tell which old slots an in-flight block may be overwriting.
    @usableFromInline let reserved = Atomic<Int>(0)

    /// How many times `readLatest` re-copies before reporting a torn read.
    public static let maximumReadAttempts = 3

    /// Creates a history of at least `minimumCapacity` samples (rounded up to a
    /// power of two). Allocates; call off the audio thread.
    public init(minimumCapacity: Int = 4096) {
        precondition(minimumCapacity > 0, "a sample ring needs at least one slot")
        var size = 1
        while size < minimumCapacity { size <<= 1 }
        capacity = size
        mask = size - 1
        slots = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: size)
        for index in 0..<size {
            (slots + index).initialize(to: Atomic<UInt32>(0))
        }
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Writer (audio thread). Appends a block of samples. Never blocks or allocates.
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    @inlinable
    public func write(_ samples: UnsafeBufferPointer<Float>) {
        let start = written.load(ordering: .relaxed)
        reserved.store(start &+ samples.count, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        var index = start
        for sample in samples {
            slots[index & mask].store(sample.bitPattern, ordering: .relaxed)
            index &+= 1
        }
        written.store(index, ordering: .releasing)
    }

    /// Writer (audio thread). Appends one sample.
    @inlinable
    public func write(_ sample: Float) {
        let index = written.load(ordering: .relaxed)
        reserved.store(index &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        slots[index & mask].store(sample.bitPattern, ordering: .relaxed)
        written.store(index &+ 1, ordering: .releasing)
    }

    /// Samples written since creation.
    @inlinable public var totalWritten: Int { written.load(ordering: .acquiring) }

    /// Reader. Copies the latest `destination.count` samples (oldest first) into
    /// `destination`. If fewer have ever been written, the front is zero-filled.
    ///
    /// - Parameter destination: at most `capacity` samples long.
    /// - Returns: `true` if the copy is consistent (one contiguous run of the
    ///   signal); `false` if it stayed torn after `maximumReadAttempts` attempts.
    @discardableResult
    public func readLatest(into destination: UnsafeMutableBufferPointer<Float>) -> Bool {
        let count = destination.count
        precondition(count <= capacity, "cannot read more samples than the ring keeps")
        guard count > 0 else { return true }
        for _ in 0..<Self.maximumReadAttempts {
            let end = written.load(ordering: .acquiring)
            let available = min(end, count)
            let zeroFill = count - available
            for i in 0..<zeroFill { destination[i] = 0 }
            var index = end &- available
            for i in zeroFill..<count {
                destination[i] = Float(bitPattern: slots[index & mask].load(ordering: .relaxed))
                index &+= 1
            }
            // Seqlock-style check: the oldest slot copied held sample end - available;
            // a writer that has reserved up to `reach` may have overwritten samples
            // older than reach - capacity. Consistent if none of those were copied.
            atomicMemoryFence(ordering: .acquiring)
            let reach = reserved.load(ordering: .relaxed)
            if reach &- end <= capacity - available { return true }
        }
        return false
    }

    /// Reader (UI thread; allocates). The latest `count` samples, oldest first.
    public func latest(_ count: Int = 256) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            readLatest(into: buffer)
            initialized = count
        }
    }
}
