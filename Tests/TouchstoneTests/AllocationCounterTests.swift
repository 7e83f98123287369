import AllocationCounting
import Foundation
import ProsperoTestSupport
import Testing

@Suite(.enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"), .ownThread)
struct AllocationCounterTests {
    @Test func interposerIsActive() {
        #expect(AllocationCounter.isAvailable, "malloc interposition must be linked into the test executable")
    }

    @Test func countsAnArrayAllocation() throws {
        try #require(AllocationCounter.isAvailable)
        var sink = 0
        let count = AllocationCounter.allocations {
            let array = [Int](repeating: 7, count: Int.random(in: 100...200))
            sink &+= array[3]
        }
        #expect(sink == 7)
        #expect(count >= 1, "a fresh Array must be seen as an allocation")
    }

    @Test func countsEveryAllocationCall() throws {
        try #require(AllocationCounter.isAvailable)
        let counts = AllocationCounter.counts {
            for _ in 0..<10 {
                let pointer = UnsafeMutablePointer<Double>.allocate(capacity: 1000)
                pointer.deallocate()
            }
            let aligned = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 256)
            aligned.deallocate()
        }
        #expect(counts.allocations == 11)
        #expect(counts.frees == 11)
    }

    @Test func arithmeticAllocatesNothing() throws {
        try #require(AllocationCounter.isAvailable)
        var accumulator: Float = 0
        let count = AllocationCounter.allocations {
            for i in 0..<10_000 { accumulator += Float(i) * 0.5 }
        }
        #expect(accumulator > 0)
        #expect(count == 0)
    }

    @Test func nestedMeasurementsAddUp() throws {
        try #require(AllocationCounter.isAvailable)
        var inner = 0
        let outer = AllocationCounter.allocations {
            let first = UnsafeMutablePointer<Int>.allocate(capacity: 8)
            first.deallocate()
            inner = AllocationCounter.allocations {
                let second = UnsafeMutablePointer<Int>.allocate(capacity: 8)
                second.deallocate()
            }
        }
        #expect(inner == 1)
        #expect(outer == 2)
    }

    /// Another thread allocating heavily at the same time is not counted here.
    @Test func countsOnlyTheCallingThread() throws {
        try #require(AllocationCounter.isAvailable)
        let done = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let noisyThread = Thread {
            started.signal()
            var keep = 0
            for i in 0..<200_000 {
                let array = [Int](repeating: i, count: 16)
                keep &+= array[0]
            }
            _ = keep
            done.signal()
        }
        noisyThread.start()
        started.wait()
        var accumulator = 0
        let count = AllocationCounter.allocations {
            for i in 0..<2_000_000 { accumulator &+= i }
        }
        done.wait()
        #expect(accumulator != 0)
        #expect(count == 0)
    }
}
