import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// Pins the limiter (with its settled fast path) to a naive reference: the window
/// minimum and the moving average recomputed over the whole look-ahead every frame; for the live stage
/// the two moving averages after a two-frame hold, each recomputed every frame.
@Suite struct BrickwallLimiterReferenceTests {
    static let sampleRate: Float = 48_000

    struct Reference {
        let window: Int
        /// The attack's means: the first over `spans.first` + 1 released gains, the second (when > 0) over
        /// the first's last `spans.second` + 1 values.
        let spans: (first: Int, second: Int)
        var spikeProtector = SpikeProtector()
        var ceiling: Float, ceilingTarget: Float
        let ceilingCoefficient = 1 - exp(-1 / (0.005 * BrickwallLimiterReferenceTests.sampleRate))
        let releaseCoefficient: Float
        var required: [Float] = []     // q per frame
        var released: [Float] = []     // r per frame
        var averaged: [Float] = []     // the first mean per frame
        var input: [(Float, Float, Float)] = []  // (left, right, ceiling) per frame
        var releasedGain: Float = 1

        init(window: Int, spans: (first: Int, second: Int), ceiling decibels: Float, release: Float) {
            self.window = window
            self.spans = spans
            ceiling = pow(10, decibels / 20)
            ceilingTarget = ceiling
            releaseCoefficient = 1 - exp(-1 / (release * BrickwallLimiterReferenceTests.sampleRate))
            spikeProtector.prepare(ProcessSpec(sampleRate: Double(BrickwallLimiterReferenceTests.sampleRate), maximumBlockSize: 512, channelCount: 2))
        }

        mutating func process(_ left: Float, _ right: Float) -> (Float, Float) {
            let (l, r) = spikeProtector.processFrame(left: left.isFinite ? left : 0, right: right.isFinite ? right : 0)
            ceiling += ceilingCoefficient * (ceilingTarget - ceiling)
            let peak = max(abs(l), abs(r))
            required.append(peak > ceiling ? ceiling / peak : 1)
            input.append((l, r, ceiling))
            let n = required.count - 1
            let minimum = required[max(0, n - window)...n].min()!
            if minimum < releasedGain {
                releasedGain = minimum
            } else {
                let next = releasedGain + releaseCoefficient * (minimum - releasedGain)
                releasedGain = next == releasedGain ? minimum : next  // a stalled release finishes
            }
            released.append(releasedGain)
            var sum = 0.0
            for k in (n - spans.first)...n { sum += k < 0 ? 1 : Double(released[k]) }
            var gain = Float(sum / Double(spans.first + 1))
            averaged.append(gain)
            if spans.second > 0 {
                sum = 0
                for k in (n - spans.second)...n { sum += k < 0 ? 1 : Double(averaged[k]) }
                gain = Float(sum / Double(spans.second + 1))
            }
            guard n >= window else { return (0, 0) }
            let (dl, dr, c) = input[n - window]
            return (min(max(dl * gain, -c), c), min(max(dr * gain, -c), c))
        }
    }

    /// `live`: the live stage (a 48-frame window at 48 kHz without the true-peak stage: means of 23 + 1 frames
    /// after a 2-frame hold); otherwise the 5 ms window and its single mean.
    @Test(arguments: [Float(-6), -1], [false, true])
    func matchesTheNaiveReference(ceiling: Float, live: Bool) {
        var random = SeededRandom(seed: 0xB1C_0000 + UInt64(-ceiling))
        let spec = ProcessSpec(sampleRate: Double(Self.sampleRate), maximumBlockSize: 512, channelCount: 2, isLive: live)
        let limiter = BrickwallLimiter(ceiling: ceiling, releaseTime: 0.02, truePeak: false)  // the reference models sample-peak detection
        limiter.prepare(spec)
        let window = limiter.latencySamples
        #expect(window == (live ? 48 : 240))
        let spans = live ? (first: (window - 2) - (window - 2) / 2, second: (window - 2) / 2) : (first: window, second: 0)
        let limiterSpans = BrickwallLimiter.attackSpans(window: window, isLive: live)
        #expect(limiterSpans.first == spans.first && limiterSpans.second == spans.second)
        var reference = Reference(window: window, spans: spans, ceiling: ceiling, release: 0.02)
        // Quiet passages (the settled path), loud bursts, spikes, and returns to quiet.
        let count = 240_000
        var left = [Float](repeating: 0, count: count), right = left
        var level: Float = 0.1
        for n in 0..<count {
            if n % 12_000 == 0 { level = [0.05, 0.3, 0.9, 2, 8][Int(random.next() % 5)] }
            left[n] = level * random.float(-1...1)
            right[n] = level * random.float(-1...1) + (random.next() % 30_000 == 0 ? 50 : 0)
        }
        var outLeft = left, outRight = right
        var worst: Float = 0
        var settledFrames = 0
        var start = 0
        while start < count {
            let end = min(count, start + 1 + Int(random.next() % 512))
            if start >= 120_000 && start < 120_512 {
                limiter.ceiling = ceiling - 4
                reference.ceilingTarget = pow(10, (ceiling - 4) / 20)
            }
            outLeft.withUnsafeMutableBufferPointer { l in
                outRight.withUnsafeMutableBufferPointer { r in
                    limiter.process(left: UnsafeMutableBufferPointer(rebasing: l[start..<end]),
                                    right: UnsafeMutableBufferPointer(rebasing: r[start..<end]))
                }
            }
            if limiter.currentGain == 1 { settledFrames += 1 }
            for n in start..<end {
                let expected = reference.process(left[n], right[n])
                worst = max(worst, abs(outLeft[n] - expected.0), abs(outRight[n] - expected.1))
            }
            start = end
        }
        print("limiter\(live ? " (live stage)" : "") ceiling \(ceiling): largest difference from the naive reference \(worst), unity-gain blocks \(settledFrames)")
        // README: the limiter matches its plain reference exactly (measured 0).
        #expect(worst == 0)
        #expect(settledFrames > 10, "the quiet passages reached unity gain")
    }
}
