import Foundation
import Synchronization
import ProsperoTestSupport
import Testing
import Touchstone

@Suite(.ownThread) struct SPSCRingBufferTests {
    @Test func capacityRoundsUpToAPowerOfTwo() {
        #expect(SPSCRingBuffer<Int>(minimumCapacity: 1).capacity == 2)
        #expect(SPSCRingBuffer<Int>(minimumCapacity: 200).capacity == 256)
        #expect(SPSCRingBuffer<Int>(minimumCapacity: 256).capacity == 256)
    }

    @Test func fifoOrderAndEmptyPop() {
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 8)
        #expect(ring.pop() == nil)
        for i in 0..<5 { #expect(ring.push(i)) }
        #expect(ring.count == 5)
        for i in 0..<5 { #expect(ring.pop() == i) }
        #expect(ring.pop() == nil)
        #expect(ring.isEmpty)
    }

    @Test func fullBufferDropsAndCountsExactly() {
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 16)
        for i in 0..<16 { #expect(ring.push(i)) }
        var refused = 0
        for i in 16..<53 where !ring.push(i) { refused += 1 }
        #expect(refused == 37)
        #expect(ring.droppedCount == 37)
        var popped: [Int] = []
        while let value = ring.pop() { popped.append(value) }
        #expect(popped == Array(0..<16), "the queued items survive, the refused ones never appear")
        // Room again after draining.
        #expect(ring.push(99))
        #expect(ring.pop() == 99)
        #expect(ring.droppedCount == 37)
    }

    @Test func drainHandsOverEverythingInOrder() {
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 32)
        for i in 0..<20 { ring.push(i) }
        var seen: [Int] = []
        let drained = ring.drain { seen.append($0) }
        #expect(drained == 20)
        #expect(seen == Array(0..<20))
    }

    /// Class elements are released exactly once, also those left in the ring.
    @Test func nonTrivialElementsAreNotLeaked() {
        final class Token { static nonisolated(unsafe) var alive = 0; init() { Token.alive += 1 }; deinit { Token.alive -= 1 } }
        do {
            let ring = SPSCRingBuffer<Token>(minimumCapacity: 4)
            for _ in 0..<6 { ring.push(Token()) }  // 2 refused and released at once
            #expect(Token.alive == 4)
            _ = ring.pop()
            #expect(Token.alive == 3)
        }
        #expect(Token.alive == 0)
    }

    /// `discard` drops the oldest in one step: what follows comes out in order, more than queued drops what is
    /// there, nothing or a negative count drops nothing, and the freed slots take pushes again (across the wrap).
    @Test func discardDropsTheOldestAndFreesTheirSlots() {
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 8)
        #expect(ring.discard(3) == 0, "an empty ring drops nothing")
        for i in 0..<8 { #expect(ring.push(i)) }
        #expect(!ring.push(8), "full")
        #expect(ring.discard(0) == 0)
        #expect(ring.discard(-2) == 0)
        #expect(ring.count == 8)
        #expect(ring.discard(5) == 5)
        #expect(ring.count == 3)
        for i in 8..<13 { #expect(ring.push(i), "the discarded slots are free again") }
        #expect(ring.pop() == 5)
        #expect(ring.discard(100) == 7, "more than queued drops what is queued")
        #expect(ring.pop() == nil)
        #expect(ring.push(42))
        #expect(ring.pop() == 42)
        // Many laps around the ring: keep the newest 3 of each 7 pushed, as a tap keeps its newest window.
        var next = 100
        for _ in 0..<50 {
            for _ in 0..<7 { #expect(ring.push(next)); next += 1 }
            #expect(ring.discard(ring.count - 3) == 4)
            var kept: [Int] = []
            ring.drain { kept.append($0) }
            #expect(kept == Array(next - 3 ..< next))
        }
    }

    /// Discarded class elements are released at once, exactly once; those left stay alive.
    @Test func discardReleasesNonTrivialElements() {
        final class Token { static nonisolated(unsafe) var alive = 0; init() { Token.alive += 1 }; deinit { Token.alive -= 1 } }
        do {
            let ring = SPSCRingBuffer<Token>(minimumCapacity: 8)
            for _ in 0..<6 { ring.push(Token()) }
            #expect(ring.discard(4) == 4)
            #expect(Token.alive == 2)
            #expect(ring.pop() != nil)
            #expect(Token.alive == 1)
        }
        #expect(Token.alive == 0)
    }

    /// A producer streams a ramp while the consumer alternately discards part of what is queued and pops the
    /// rest: every value it sees is larger than the one before (discarded ones are skipped, never seen again, never
    /// out of order), and every pushed value is either seen or discarded.
    @Test func discardWhileAProducerPushesKeepsOrder() {
        let total = 500_000
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 64)
        let (producerDone, _) = Self.pushRamp(total, into: ring)
        var last = -1, seen = 0, discarded = 0, outOfOrder = 0, round = 0, spins = 0
        while seen + discarded < total {
            round += 1
            if round % 3 == 0 {
                discarded += ring.discard(ring.count / 2)
            } else if let value = ring.pop() {
                if value <= last { outOfOrder += 1 }
                last = value
                seen += 1
            } else {
                spins += 1
                if spins % 64 == 0 { sched_yield() }
            }
        }
        producerDone.wait()
        #expect(outOfOrder == 0)
        #expect(seen + discarded == total)
        #expect(ring.pop() == nil)
        #expect(discarded > 0)
    }

    /// Two threads, millions of sequenced items through a tiny ring: the consumer
    /// sees every item exactly once and in order; every refused push is counted.
    @Test func twoThreadStressLosesAndDuplicatesNothing() {
        let total = 2_000_000
        let ring = SPSCRingBuffer<Int>(minimumCapacity: 64)
        let (producerDone, refusedByProducer) = Self.pushRamp(total, into: ring)

        var expected = 0
        var outOfOrder = 0
        var spins = 0
        while expected < total {
            if let value = ring.pop() {
                if value != expected { outOfOrder += 1 }
                expected = value + 1
            } else {
                spins += 1
                if spins % 64 == 0 { sched_yield() }
            }
        }
        producerDone.wait()
        #expect(outOfOrder == 0)
        #expect(expected == total)
        #expect(ring.pop() == nil, "nothing duplicated after the last item")
        #expect(ring.droppedCount == refusedByProducer.value)
    }

    /// Starts a producer thread that pushes 0..<total into `ring`, yielding now and then while it is full;
    /// the semaphore is signalled once it is done, after it wrote how many pushes were refused.
    static func pushRamp(_ total: Int, into ring: SPSCRingBuffer<Int>) -> (done: DispatchSemaphore, refused: RefusalTally) {
        let done = DispatchSemaphore(value: 0)
        let tally = RefusalTally()
        let producer = Thread {
            var refused = 0
            var i = 0
            while i < total {
                if ring.push(i) {
                    i += 1
                } else {
                    refused += 1
                    if refused % 64 == 0 { sched_yield() }
                }
            }
            tally.value = refused
            done.signal()
        }
        producer.start()
        return (done, tally)
    }

    final class RefusalTally: @unchecked Sendable {
        // Written by the producer before it signals, read after waiting: ordered by the semaphore.
        var value = 0
    }
}

@Suite(.ownThread) struct SampleRingBufferTests {
    @Test func readsTheLatestSamplesOldestFirst() {
        let ring = SampleRingBuffer(minimumCapacity: 64)
        #expect(ring.capacity == 64)
        let block: [Float] = (0..<100).map(Float.init)
        block.withUnsafeBufferPointer { ring.write($0) }
        #expect(ring.latest(10) == (90..<100).map(Float.init))
        ring.write(100)
        #expect(ring.latest(3) == [98, 99, 100])
        #expect(ring.totalWritten == 101)
    }

    @Test func zeroFillsBeforeEnoughHistory() {
        let ring = SampleRingBuffer(minimumCapacity: 16)
        ring.write(1)
        ring.write(2)
        #expect(ring.latest(4) == [0, 0, 1, 2])
    }

    /// A writer thread streams a ramp; every read reported consistent must be a
    /// contiguous run of the ramp. The writer keeps going until the reader has
    /// seen enough consistent reads, so the outcome does not depend on how the
    /// scheduler shares the cores between the two threads and other tests.
    @Test func concurrentReadsAreContiguousWhenReportedConsistent() {
        let ring = SampleRingBuffer(minimumCapacity: 4096)
        let stop = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        let writer = Thread {
            var block = [Float](repeating: 0, count: 64)
            var next: Float = 0
            var blocks = 0
            while !stop.load(ordering: .relaxed) {
                for i in 0..<64 {
                    block[i] = next
                    next = next == 1_000_000 ? 0 : next + 1
                }
                block.withUnsafeBufferPointer { ring.write($0) }
                blocks += 1
                if blocks % 8 == 0 { sched_yield() }  // an audio thread writes in bursts, not flat out
            }
            finished.signal()
        }
        writer.start()
        var destination = [Float](repeating: 0, count: 256)
        let wantedConsistentReads = 5_000
        let maximumReads = 5_000_000  // a bound, so a broken ring fails instead of hanging
        var consistentReads = 0
        var brokenRuns = 0
        var reads = 0
        while consistentReads < wantedConsistentReads && reads < maximumReads {
            reads += 1
            let writtenBefore = ring.totalWritten
            let consistent = destination.withUnsafeMutableBufferPointer { ring.readLatest(into: $0) }
            // Count only once the writer has wrapped, so every read races real overwrites.
            guard consistent, writtenBefore >= ring.capacity else { continue }
            consistentReads += 1
            for i in 1..<256 {
                let step = destination[i] - destination[i - 1]
                if step != 1 && !(destination[i] == 0 && destination[i - 1] == 1_000_000) { brokenRuns += 1; break }
            }
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()
        #expect(brokenRuns == 0)
        #expect(consistentReads == wantedConsistentReads, "\(reads) reads gave only \(consistentReads) consistent ones")
    }
}
