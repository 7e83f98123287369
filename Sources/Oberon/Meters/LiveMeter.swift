import Ariel
import Foundation

/// The reader's side of the live level meters: the ballistics run on the blocks an audio thread's
/// `LiveMeterTap` measured. Peak: a `PeakMeter` per channel fed block peaks (exact to one block).
/// RMS: the sums of squares of the newest blocks covering the 300 ms window (the oldest block counted
/// in proportion to the part inside it), so block boundaries aside it equals `RMSMeter`.
///
/// One thread reads a tap; `update(from:)` and `snapshot` allocate nothing (the block history is
/// allocated at `init`), so a UI can poll at any rate.
///
///     let meter = LiveMeter(sampleRate: 48_000)
///     meter.update(from: handler.meterTap)   // ~10 Hz, off the audio thread
///     print(meter.snapshot.line)
public final class LiveMeter {
    public let sampleRate: Double
    /// RMS window in seconds and in samples.
    public let rmsWindow: Double
    public let rmsWindowSamples: Int
    private var left: PeakMeter
    private var right: PeakMeter
    /// The newest blocks (a ring), enough to cover the RMS window at one frame per block worst case
    /// up to `historyCapacity`; blocks of 16 frames or more always cover it.
    private let history: UnsafeMutablePointer<LiveMeterBlock>
    private let historyCapacity: Int
    private var newest = -1
    private var stored = 0
    private var frames = 0
    private var dropped = 0

    /// - Parameters: `sampleRate` in Hz (> 0); `holdTime` of the peak meters in seconds; `rmsWindow` in seconds (0.01…10).
    public init(sampleRate: Double, holdTime: Double = 0.5, rmsWindow: Double = 0.3) {
        self.sampleRate = sampleRate > 0 && sampleRate.isFinite ? sampleRate : 48_000
        self.rmsWindow = min(max(rmsWindow.isFinite ? rmsWindow : 0.3, 0.01), 10)
        rmsWindowSamples = max(1, Int((self.rmsWindow * self.sampleRate).rounded()))
        left = PeakMeter(sampleRate: self.sampleRate, holdTime: holdTime)
        right = PeakMeter(sampleRate: self.sampleRate, holdTime: holdTime)
        historyCapacity = max(64, rmsWindowSamples / 16 + 2)
        history = .allocate(capacity: historyCapacity)
        history.initialize(repeating: LiveMeterBlock(frameCount: 0, peakLeft: 0, peakRight: 0, sumOfSquaresLeft: 0, sumOfSquaresRight: 0),
                           count: historyCapacity)
    }

    deinit { history.deallocate() }

    /// Drains `tap` (this meter must be its only reader).
    public func update(from tap: LiveMeterTap) {
        tap.drain { ingest($0) }
        dropped = tap.droppedBlockCount
    }

    /// Feeds one measured block.
    public func ingest(_ block: LiveMeterBlock) {
        guard block.frameCount > 0 else { return }
        left.process(blockPeak: block.peakLeft, frameCount: block.frameCount)
        right.process(blockPeak: block.peakRight, frameCount: block.frameCount)
        newest = (newest + 1) % historyCapacity
        history[newest] = block
        stored = min(stored + 1, historyCapacity)
        frames += block.frameCount
    }

    /// Mean squares (left, right) over the RMS window (fewer samples at the start).
    public var meanSquares: (left: Double, right: Double) {
        var needed = rmsWindowSamples, counted = 0
        var sumL = 0.0, sumR = 0.0
        var index = newest, seen = 0
        while needed > 0 && seen < stored {
            let block = history[index]
            let take = min(needed, block.frameCount)
            let share = Double(take) / Double(block.frameCount)
            sumL += block.sumOfSquaresLeft * share
            sumR += block.sumOfSquaresRight * share
            needed -= take
            counted += take
            seen += 1
            index = (index - 1 + historyCapacity) % historyCapacity
        }
        guard counted > 0 else { return (0, 0) }
        return (sumL / Double(counted), sumR / Double(counted))
    }

    public var snapshot: LiveMeterSnapshot {
        let floor = PeakMeter.floorDecibels
        func decibels(meanSquare: Double) -> Double { meanSquare > 0 ? max(floor, 10 * log10(meanSquare)) : floor }
        let squares = meanSquares
        let maximum = max(left.maximum, right.maximum)
        return LiveMeterSnapshot(
            peakLeftDBFS: left.levelDecibels, peakRightDBFS: right.levelDecibels,
            rmsLeftDBFS: decibels(meanSquare: squares.left), rmsRightDBFS: decibels(meanSquare: squares.right),
            maximumPeakDBFS: maximum > 0 ? max(floor, 20 * log10(Double(maximum))) : floor,
            seconds: Double(frames) / sampleRate, droppedBlocks: dropped)
    }
}
