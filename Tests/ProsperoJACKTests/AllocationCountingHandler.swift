import AllocationCounting
import ProsperoJACK
import Synchronization

/// Wraps a handler and counts every allocation JACK's process thread makes from the start of the
/// first period on: the rest of that period (the inner handler's first `process` included), then
/// every whole callback (``JACKClient``'s bookkeeping, MIDI in and out, the handler) and whatever
/// libjack runs on that thread between them. Nothing is warmed up by the test: the handler was only
/// prepared by the client's activation.
final class AllocationCountingHandler<Inner: JACKProcessHandler>: JACKProcessHandler, @unchecked Sendable {
    let inner: Inner
    /// Allocations on the process thread since the first period began; -1 before it.
    let allocations = Atomic<Int>(-1)
    let periods = Atomic<Int>(0)
    /// Set by the test: the next period makes one allocation (proves the counting sees that thread).
    let probe = Atomic<Bool>(false)
    /// Of ``allocations``: those of the first period (from its start in the handler on), and those
    /// inside the inner handler's later `process` calls.
    let firstPeriodAllocations = Atomic<Int>(-1)
    let innerAllocations = Atomic<Int>(0)
    private var baseline = 0
    private var started = false

    init(_ inner: Inner) { self.inner = inner }

    func prepare(sampleRate: Double, maximumFrames: Int) {
        inner.prepare(sampleRate: sampleRate, maximumFrames: maximumFrames)
    }

    func process(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        if !started {
            started = true
            baseline = AllocationCounter.startCountingThisThread()
        }
        if probe.load(ordering: .relaxed) {
            probe.store(false, ordering: .relaxed)
            AllocationCounter.allocateOnce()
        }
        let before = AllocationCounter.allocationsOnThisThread
        inner.process(frameCount: frameCount, left: left, right: right, midiIn: midiIn, midiOut: &midiOut)
        let inside = AllocationCounter.allocationsOnThisThread - before
        let total = AllocationCounter.allocationsOnThisThread - baseline
        if periods.load(ordering: .relaxed) == 0 {
            firstPeriodAllocations.store(total, ordering: .relaxed)
        } else if inside > 0 {
            innerAllocations.add(inside, ordering: .relaxed)
        }
        allocations.store(total, ordering: .releasing)
        periods.add(1, ordering: .releasing)
    }

    func stopping(midiOut: inout JACKMIDIOutput) {
        inner.stopping(midiOut: &midiOut)
        allocations.store(AllocationCounter.allocationsOnThisThread - baseline, ordering: .releasing)
    }

    var processingLatency: Int { inner.processingLatency }
}
