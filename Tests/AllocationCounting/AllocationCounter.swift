import CAllocationCounter

/// Counts heap allocations made by the current thread while a closure runs.
///
/// Test-only. The `CAllocationCounter` target interposes `malloc`, `calloc`,
/// `realloc`, `free`, `posix_memalign`, `aligned_alloc`, `memalign`, `valloc` and
/// `pvalloc` in the test executable (glibc), so every allocation in the process —
/// Swift runtime, stdlib, Foundation — passes through a thread-local counter. Only
/// the calling thread is counted, so Swift Testing's parallel tests do not see each
/// other's allocations.
///
///     var delay = DelayLine(maximumDelay: 1)
///     delay.prepare(spec)                       // allocates: not counted
///     delay.process(buffer)                     // warm-up (lazy metadata, first-call caches)
///     let count = AllocationCounter.allocations { delay.process(buffer) }
///     #expect(count == 0)
///
/// - Note: The body runs synchronously on the calling thread; do not hop threads
///   (no `await`) inside it, or the work on the other thread goes uncounted.
/// - Note: On platforms without glibc, and in sanitizer builds, the interposers are
///   not compiled in; `isAvailable` is then false and every count is 0. Tests should
///   `#require(AllocationCounter.isAvailable)` so they cannot pass vacuously, inside a
///   suite marked `.enabled(if: !AllocationCounter.isDisabledBySanitizer)`.
public enum AllocationCounter {
    /// Allocations and frees observed during one measured closure.
    public struct Counts: Sendable, Hashable {
        /// Calls that can allocate (malloc, calloc, realloc, the aligned variants).
        public var allocations: Int
        /// Calls to free with a non-null pointer.
        public var frees: Int
    }

    /// True when allocation calls are really being intercepted and counted. Checks
    /// it live: a malloc made through the dynamic symbol must be seen.
    public static var isAvailable: Bool {
        guard allocation_counter_is_interposing() != 0 else { return false }
        let counts = counts { allocation_counter_touch_heap(64) }
        return counts.allocations >= 1 && counts.frees >= 1
    }

    /// True in a ThreadSanitizer/AddressSanitizer build: the sanitizer runtime owns
    /// malloc there, so interposition is compiled out and `isAvailable` is false.
    /// Suites use `.enabled(if: !AllocationCounter.isDisabledBySanitizer)`.
    public static var isDisabledBySanitizer: Bool { allocation_counter_is_sanitized() != 0 }

    /// Runs `body` on the calling thread and returns the allocation calls it made.
    ///
    /// - Parameter body: the code under test; its own allocations count, including
    ///   those made by runtime functions it calls.
    /// - Returns: the number of allocation calls (≥ 0).
    public static func allocations<E: Error>(during body: () throws(E) -> Void) throws(E) -> Int {
        try counts(during: body).allocations
    }

    /// Runs `body` on the calling thread and returns its allocation and free calls.
    /// Measurements nest: an outer one includes what an inner one saw.
    public static func counts<E: Error>(during body: () throws(E) -> Void) throws(E) -> Counts {
        let allocationsBefore = allocation_counter_allocations()
        let freesBefore = allocation_counter_frees()
        let previous = allocation_counter_begin()
        defer { allocation_counter_end(previous) }
        try body()
        return Counts(
            allocations: Int(allocation_counter_allocations() - allocationsBefore),
            frees: Int(allocation_counter_frees() - freesBefore)
        )
    }

    /// For a thread the test does not run itself (JACK's process thread): turns counting on for
    /// the calling thread for the rest of its life and returns its count so far, the baseline for
    /// ``allocationsOnThisThread``. Call it from that thread (from a handler's callback).
    public static func startCountingThisThread() -> Int {
        _ = allocation_counter_begin()
        return Int(allocation_counter_allocations())
    }

    /// Allocation calls counted on the calling thread while counting was on (see ``startCountingThisThread()``).
    public static var allocationsOnThisThread: Int { Int(allocation_counter_allocations()) }

    /// Makes one heap allocation through the dynamic malloc symbol (a probe that counting sees).
    public static func allocateOnce() { allocation_counter_touch_heap(32) }
}
