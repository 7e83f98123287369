import Touchstone

/// The end of Hecate's chain: the brickwall limiter (spike protection, then a look-ahead limiter at
/// −6, −10 or −14 dBFS by output route) and the meters the display reads (RMS and peak since the
/// previous snapshot).
struct DroneOutputStage {
    let limiter = BrickwallLimiter(ceiling: -6, releaseTime: 0.1)
    /// Sum of squares of the mid signal and frames since the last `takeMeters()`.
    private var sumOfSquares: Double = 0
    private var framesSinceMeters = 0
    /// RMS smoothed per snapshot (0.7 × previous + 0.3 × new), linear.
    private var smoothedRMS: Float = 0
    /// Highest sample on either channel since the last `takeMeters()`, linear.
    private var peak: Float = 0

    func prepare(_ spec: ProcessSpec) { limiter.prepare(spec) }

    /// An empty limiter and meters at 0.
    mutating func reset() {
        limiter.reset()
        sumOfSquares = 0
        framesSinceMeters = 0
        peak = 0
        smoothedRMS = 0
    }

    /// Limits one chunk in place.
    @inline(__always)
    func limit(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        limiter.process(left: left, right: right)
    }

    /// Adds one block of output (`count` frames) to the meters.
    mutating func measure(left l: UnsafePointer<Float>, right r: UnsafePointer<Float>, count: Int) {
        var sum: Float = 0  // one block's sum is exact enough in Float; the running total is Double
        var peak = self.peak
        for i in 0..<count {
            let m = 0.5 * (l[i] + r[i])
            sum += m * m
            peak = max(peak, max(abs(l[i]), abs(r[i])))  // not variadic: that builds an array
        }
        sumOfSquares += Double(sum)
        framesSinceMeters += count
        self.peak = peak
    }

    /// The smoothed RMS (folding in the frames since the last call) and the peak since the last call,
    /// both linear; starts the next metering period.
    mutating func takeMeters() -> (rms: Float, peak: Float) {
        let newRMS = framesSinceMeters > 0 ? Float((sumOfSquares / Double(framesSinceMeters)).squareRoot()) : 0
        smoothedRMS = 0.7 * smoothedRMS + 0.3 * newRMS
        sumOfSquares = 0
        framesSinceMeters = 0
        let result = (rms: smoothedRMS, peak: peak)
        peak = 0
        return result
    }
}
