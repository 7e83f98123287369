import Touchstone

/// The audio thread's side of the live level meters: once per block, `measure` reduces the output to a
/// ``LiveMeterBlock`` (peak and sum of squares per channel) and pushes it into a lock-free
/// single-producer single-consumer ring; one reader (a status line, the studio) drains the blocks and
/// runs the ballistics (Oberon's `LiveMeter`: peak hold and fall, 300 ms RMS).
///
/// The tap is Touchstone's `SPSCRingBuffer` of blocks itself (not a class holding one), so the audio
/// side touches no reference count: it never allocates, locks or waits, and a full ring drops the
/// block and counts it. At 48 kHz in 64-frame periods the default 1024 blocks hold 1.4 s, so a reader
/// a few times a second never loses one. Non-finite samples count as silence (a meter must not show NaN).
///
///     let tap = LiveMeterTap()
///     tap.measure(left: l, right: r)      // audio thread, after rendering the block
///     tap.drain { meter.ingest($0) }      // the one reader thread
public typealias LiveMeterTap = SPSCRingBuffer<LiveMeterBlock>

extension SPSCRingBuffer where Element == LiveMeterBlock {
    /// - Parameter capacity: blocks held between two drains (rounded up to a power of two). Allocates.
    public convenience init(capacity: Int = 1024) {
        self.init(minimumCapacity: max(2, capacity))
    }

    /// Blocks dropped because the reader fell behind by the whole ring.
    public var droppedBlockCount: Int { droppedCount }

    /// Audio thread: measures one stereo block (`left` and `right` of equal length) and queues it.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func measure(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>) {
        let n = min(left.count, right.count)
        guard n > 0 else { return }
        var peakL: Float = 0, peakR: Float = 0
        var sumL: Double = 0, sumR: Double = 0
        for i in 0..<n {
            let l = left[i].isFinite ? left[i] : 0
            let r = right[i].isFinite ? right[i] : 0
            peakL = max(peakL, abs(l))
            peakR = max(peakR, abs(r))
            sumL += Double(l) * Double(l)
            sumR += Double(r) * Double(r)
        }
        push(LiveMeterBlock(frameCount: n, peakLeft: peakL, peakRight: peakR, sumOfSquaresLeft: sumL, sumOfSquaresRight: sumR))
    }

    /// The reader (one thread): hands every queued block to `body`, oldest first.
    public func drain(_ body: (LiveMeterBlock) -> Void) {
        while let block = pop() { body(block) }
    }
}
