import Foundation

/// Loudness to ITU-R BS.1770-4 / EBU R128, in one pass with fixed memory.
///
/// Each channel is K-weighted (`KWeightingFilter`) and squared; squares are summed per 100 ms step
/// (channel weights 1 for left, right and centre, 1.41 for the surrounds of a 5-channel feed). From the
/// last 4 steps comes the momentary loudness (400 ms), from the last 30 the short-term loudness (3 s),
/// both updated every 100 ms as −0.691 + 10·log10(weighted mean square) LUFS. Every momentary block
/// goes to the integrated histogram (gates at −70 LUFS and −10 LU), every full short-term block to the
/// loudness-range histogram (EBU Tech 3342: gates at −70 LUFS and −20 LU, 95th − 10th percentile).
///
/// `process` never allocates; the histograms (`LoudnessHistogram`) are allocated at `init`, so memory
/// does not grow with the programme's length. Sample rate: any (the K-weighting is derived for it;
/// 100 ms steps follow round(k·fs/10) so rates not divisible by 10 keep step boundaries exact).
public final class LoudnessMeter {
    /// Channel weights G_i of BS.1770-4 for 1…5 channels (L, R, C, Ls, Rs).
    public static let channelWeights: [Double] = [1, 1, 1, 1.41, 1.41]

    /// Sample rate in Hz.
    public let sampleRate: Double
    /// Channels (1…5).
    public let channelCount: Int
    /// Momentary loudness (400 ms) in LUFS; −∞ until 400 ms have been measured or in silence.
    public private(set) var momentaryLoudness = -Double.infinity
    /// Short-term loudness (3 s) in LUFS; over what has arrived until 3 s have; −∞ before 400 ms.
    public private(set) var shortTermLoudness = -Double.infinity
    /// Highest momentary loudness so far, LUFS.
    public private(set) var momentaryMaximum = -Double.infinity
    /// Highest short-term loudness of full 3 s windows, LUFS (−∞ before 3 s).
    public private(set) var shortTermMaximumOfFullWindows = -Double.infinity
    /// Highest short-term loudness including the shorter windows of the first 3 s, LUFS.
    private var shortTermMaximumOfAllWindows = -Double.infinity
    /// 400 ms blocks (75 % overlap) for the integrated loudness.
    public private(set) var momentaryBlocks = LoudnessHistogram()
    /// 3 s blocks (10 per second) for the loudness range.
    public private(set) var shortTermBlocks = LoudnessHistogram()

    private var filters: [KWeightingFilter]
    private let weights: [Double]
    /// Weighted sums of squares of the last 30 steps (a ring) and their sample counts.
    private var stepSums = [Double](repeating: 0, count: 30)
    private var stepLengths = [Int](repeating: 0, count: 30)
    private var stepIndex = 0
    private var stepsDone = 0
    private var currentSum = 0.0
    private var currentLength = 0
    private var currentTarget = 0
    /// Samples per channel consumed so far.
    public private(set) var frameCount = 0

    /// - Parameters: `sampleRate` in Hz (> 0); `channelCount` 1…5.
    public init(sampleRate: Double, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = min(max(channelCount, 1), 5)
        // The K-weighting needs its 1.7 kHz shelf below Nyquist: rates under 4 kHz are filtered as 4 kHz.
        filters = [KWeightingFilter](repeating: KWeightingFilter(sampleRate: max(sampleRate, 4_000)), count: self.channelCount)
        weights = Array(Self.channelWeights.prefix(self.channelCount))
        currentTarget = stepBoundary(1)
    }

    /// End of step k in frames; at least k, so every step holds a frame whatever the rate.
    private func stepBoundary(_ k: Int) -> Int { max(k, Int((Double(k) * sampleRate / 10).rounded())) }

    /// Integrated loudness in LUFS; nil for silence (no 400 ms block above −70 LUFS).
    public var integratedLoudness: Double? { momentaryBlocks.integratedLoudness }
    /// Loudness range in LU (EBU Tech 3342); nil when no full short-term block is above the gates.
    public var loudnessRange: Double? { shortTermBlocks.loudnessRange }
    /// Highest short-term loudness: of full 3 s windows, or of the shorter ones for programmes under
    /// 3 s; nil when silent.
    public var shortTermMaximum: Double? {
        let value = shortTermMaximumOfFullWindows.isFinite ? shortTermMaximumOfFullWindows : shortTermMaximumOfAllWindows
        return value.isFinite && value > LoudnessHistogram.absoluteGate ? value : nil
    }

    /// Feeds one frame per index of `channels` (each buffer one channel, equal lengths, `channelCount`
    /// of them). Non-finite samples count as silence.
    public func process(_ channels: UnsafeBufferPointer<UnsafeBufferPointer<Float>>) {
        precondition(channels.count == channelCount, "one buffer per channel")
        let frames = channels[0].count
        var start = 0
        while start < frames {
            let run = min(frames - start, currentTarget - frameCount)
            for c in 0..<channelCount {
                let samples = channels[c]
                var filter = filters[c]
                var sum = 0.0
                for i in start..<(start + run) {
                    let x = samples[i]
                    let y = filter.process(x.isFinite ? Double(x) : 0)
                    sum += y * y
                }
                filters[c] = filter
                currentSum += weights[c] * sum
            }
            frameCount += run
            currentLength += run
            start += run
            if frameCount == currentTarget { finishStep() }
        }
    }

    /// Stereo convenience: left and right of equal length (a 2-channel meter).
    public func process(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>) {
        precondition(channelCount == 2 && left.count == right.count, "a stereo meter and equal lengths")
        withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<Float>.self, capacity: 2) { pair in
            pair[0] = left
            pair[1] = right
            process(UnsafeBufferPointer(pair))
        }
    }

    /// Mono convenience (a 1-channel meter).
    public func process(mono: UnsafeBufferPointer<Float>) {
        precondition(channelCount == 1, "a mono meter")
        withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<Float>.self, capacity: 1) { one in
            one[0] = mono
            process(UnsafeBufferPointer(one))
        }
    }

    private func finishStep() {
        stepSums[stepIndex] = currentSum
        stepLengths[stepIndex] = currentLength
        stepIndex = (stepIndex + 1) % 30
        stepsDone += 1
        currentSum = 0
        currentLength = 0
        currentTarget = stepBoundary(stepsDone + 1)
        guard stepsDone >= 4 else { return }
        let momentary = meanSquare(ofLast: 4)
        momentaryBlocks.add(meanSquare: momentary)
        momentaryLoudness = LoudnessHistogram.loudness(meanSquare: momentary)
        momentaryMaximum = max(momentaryMaximum, momentaryLoudness)
        let shortTerm = meanSquare(ofLast: min(stepsDone, 30))
        shortTermLoudness = LoudnessHistogram.loudness(meanSquare: shortTerm)
        shortTermMaximumOfAllWindows = max(shortTermMaximumOfAllWindows, shortTermLoudness)
        if stepsDone >= 30 {
            shortTermBlocks.add(meanSquare: shortTerm)
            shortTermMaximumOfFullWindows = max(shortTermMaximumOfFullWindows, shortTermLoudness)
        }
    }

    /// Weighted mean square over the last `steps` 100 ms steps.
    private func meanSquare(ofLast steps: Int) -> Double {
        var sum = 0.0, length = 0
        for k in 1...steps {
            let slot = (stepIndex - k + 30) % 30
            sum += stepSums[slot]
            length += stepLengths[slot]
        }
        return length == 0 ? 0 : sum / Double(length)
    }

    /// Back to the start (no allocation).
    public func reset() {
        for c in filters.indices { filters[c].reset() }
        for k in 0..<30 { stepSums[k] = 0; stepLengths[k] = 0 }
        stepIndex = 0; stepsDone = 0; currentSum = 0; currentLength = 0; frameCount = 0
        currentTarget = stepBoundary(1)
        momentaryLoudness = -.infinity; shortTermLoudness = -.infinity
        momentaryMaximum = -.infinity; shortTermMaximumOfFullWindows = -.infinity; shortTermMaximumOfAllWindows = -.infinity
        momentaryBlocks.reset()
        shortTermBlocks.reset()
    }
}
