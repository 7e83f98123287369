import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// The true-peak limiter's block path (input cleaned four frames at a time where the spike protector rests at
/// unity, both channels' peaks detected in one pass) against its one-frame path (every frame cleaned and
/// spike-protected one by one, the detector run for one interval): the outputs must be equal bit for bit.
/// With `TruePeakDetectorTests.stereoPassEqualsTwoSingleChannelPasses` (the two-channel detector equals the
/// single-channel one), this pins the block path to the algorithm as it was before either shortcut.
@Suite struct BrickwallLimiterBlockPathTests {
    /// Also with the ceiling moved between blocks (the quiet-chunk shortcut compares against the gliding ceiling).
    @Test(arguments: [(true, false), (false, false), (true, true)])
    func blockPathEqualsTheFramePathBitForBit(spikeProtection: Bool, movingCeiling: Bool) {
        var random = SeededRandom(seed: (spikeProtection ? 0x7B1C_0001 : 0x7B1C_0000) ^ (movingCeiling ? 0x100 : 0))
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2)
        let block = BrickwallLimiter(ceiling: -3, releaseTime: 0.05)
        let frame = BrickwallLimiter(ceiling: -3, releaseTime: 0.05)
        for limiter in [block, frame] {
            limiter.spikeProtectionEnabled = spikeProtection
            limiter.prepare(spec)
        }
        // Quiet passages (the spike protector at rest, the limiter settled), loud ones, spikes above the spike
        // threshold (+6 dBFS), and non-finite samples.
        let count = 96_000
        var left = [Float](repeating: 0, count: count), right = left
        var level: Float = 0.1
        for n in 0..<count {
            if n % 6_000 == 0 { level = [0.02, 0.3, 0.9, 1.5, 4][Int(random.next() % 5)] }
            left[n] = level * random.float(-1...1)
            right[n] = level * random.float(-1...1)
            switch random.next() % 4_000 {
            case 0: left[n] = 30
            case 1: right[n] = -.infinity
            case 2: left[n] = .nan
            default: break
            }
        }
        var outLeft = left, outRight = right
        var differing = 0
        var start = 0
        while start < count {
            let end = min(count, start + 1 + Int(random.next() % 300))
            if movingCeiling && random.next() % 8 == 0 {
                let ceiling = -12 * random.float(0...1)
                block.ceiling = ceiling
                frame.ceiling = ceiling
            }
            outLeft.withUnsafeMutableBufferPointer { l in
                outRight.withUnsafeMutableBufferPointer { r in
                    block.process(left: UnsafeMutableBufferPointer(rebasing: l[start..<end]),
                                  right: UnsafeMutableBufferPointer(rebasing: r[start..<end]))
                }
            }
            for n in start..<end {
                let out = frame.processFrame(left: left[n], right: right[n])
                if out.left.bitPattern != outLeft[n].bitPattern || out.right.bitPattern != outRight[n].bitPattern {
                    differing += 1
                }
            }
            start = end
        }
        #expect(differing == 0, "\(differing) frames differ between the block and the one-frame paths")
        #expect(block.safetyClampEngagements == 0)
    }
}
