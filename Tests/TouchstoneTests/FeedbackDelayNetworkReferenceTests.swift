import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

/// Pins the vectorised FDN reverb and its SIMD Walsh–Hadamard transform to plain
/// scalar definitions written out here.
@Suite struct FeedbackDelayNetworkReferenceTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 512, channelCount: 2)

    /// The in-place radix-2 fast Walsh–Hadamard transform (unnormalised).
    static func scalarHadamard(_ x: [Float]) -> [Float] {
        var s = x
        var half = 1
        while half < 8 {
            for block in stride(from: 0, to: 8, by: 2 * half) {
                for j in block..<(block + half) {
                    let a = s[j], b = s[j + half]
                    s[j] = a + b
                    s[j + half] = a - b
                }
            }
            half *= 2
        }
        return s
    }

    @Test func simdHadamardEqualsTheScalarTransformAndTheMatrix() {
        var random = SeededRandom(seed: 0x4AD_A3A4D)
        for trial in 0..<2_000 {
            let x = (0..<8).map { _ in trial % 2 == 0 ? random.float(-1...1) : random.float(-1e6...1e6) }
            let simd = WalshHadamard.transform(SIMD8<Float>(x))
            let scalar = Self.scalarHadamard(x)
            // Same grouping of additions: bit-identical.
            #expect((0..<8).allSatisfy { simd[$0] == scalar[$0] }, "\(x)")
            // And the definition yₖ = Σ (−1)^popcount(k & i) xᵢ, in double precision.
            for k in 0..<8 {
                let exact = (0..<8).reduce(0.0) { $0 + ((k & $1).nonzeroBitCount % 2 == 0 ? 1 : -1) * Double(x[$1]) }
                let scale = x.reduce(0.0) { $0 + abs(Double($1)) }
                #expect(abs(Double(simd[k]) - exact) <= 4e-7 * scale)
            }
        }
        // Unit vectors give the rows of the Sylvester matrix.
        for i in 0..<8 {
            var e = SIMD8<Float>(repeating: 0)
            e[i] = 1
            let column = WalshHadamard.transform(e)
            for k in 0..<8 { #expect(column[k] == ((k & i).nonzeroBitCount % 2 == 0 ? 1 : -1)) }
        }
    }

    /// 2^x exactly as the kernel computes its gains (so the reference sees the same gains).
    static func exp2(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 127)
        let shifted = clamped + 12_582_912
        let integerPart = shifted - 12_582_912
        let n = Int32(bitPattern: shifted.bitPattern) &- 0x4B40_0000
        let r = clamped - integerPart
        var p: Float = 1.540_353_0e-4
        p = p * r + 1.333_355_8e-3
        p = p * r + 9.618_129_1e-3
        p = p * r + 5.550_410_9e-2
        p = p * r + 0.240_226_51
        p = p * r + 0.693_147_18
        p = p * r + 1
        return p * Float(bitPattern: UInt32(truncatingIfNeeded: n &+ 127) << 23)
    }

    static func flush(_ x: Float) -> Float { abs(x) < 1e-20 ? 0 : x }

    /// The network as documented, one sample at a time with plain arrays: four
    /// allpasses per side, eight lines with one-pole damping and decay gains, the
    /// Hadamard feedback, ±1 output taps; decay and damping eased every 32 samples.
    struct Reference {
        var lines: [[Float]]
        var lineIndex = [Int](repeating: 0, count: 8)
        var lengths: [Int]
        var states = [Float](repeating: 0, count: 8)
        var gains = [Float](repeating: 0, count: 8)
        var poles = [Float](repeating: 0, count: 8)
        var diffusers: [[Float]]
        var diffuserIndex = [Int](repeating: 0, count: 8)
        var diffusion: Float = 0.6
        var decayRate: Float, decayRateTarget: Float
        var damping: Float, dampingTarget: Float
        var mix: Float, mixTarget: Float
        var countdown = 0
        let controlCoefficient = 1 - Foundation.exp(-Float(32) / (0.05 * Float(FeedbackDelayNetworkReferenceTests.sampleRate)))
        let mixCoefficient = 1 - Foundation.exp(-1 / (0.01 * Float(FeedbackDelayNetworkReferenceTests.sampleRate)))

        init(lengths: [Int], decay: Float, damping: Float, mix: Float) {
            self.lengths = lengths
            lines = lengths.map { [Float](repeating: 0, count: $0) }
            let milliseconds: [Double] = [4.77, 3.59, 12.7, 9.31, 4.93, 3.79, 12.1, 9.73]
            diffusers = milliseconds.map { [Float](repeating: 0, count: max(1, Int(($0 * FeedbackDelayNetworkReferenceTests.sampleRate / 1000).rounded()))) }
            decayRate = 1 / decay; decayRateTarget = decayRate
            self.damping = damping; dampingTarget = damping
            self.mix = mix; mixTarget = mix
            updateGains()
        }

        mutating func updateGains() {
            for i in 0..<8 {
                let decibelsOverTwenty = -3 * (Float(lengths[i]) / Float(FeedbackDelayNetworkReferenceTests.sampleRate)) * decayRate
                gains[i] = FeedbackDelayNetworkReferenceTests.exp2(decibelsOverTwenty * 3.321_928_1)
                let ratio = FeedbackDelayNetworkReferenceTests.exp2(decibelsOverTwenty * (1 / (1 - 0.95 * damping) - 1) * 3.321_928_1)
                poles[i] = (1 - ratio) / (1 + ratio)
            }
        }

        mutating func allpass(_ input: Float, _ k: Int) -> Float {
            let delayed = diffusers[k][diffuserIndex[k]]
            let v = FeedbackDelayNetworkReferenceTests.flush(input + diffusion * delayed)
            diffusers[k][diffuserIndex[k]] = v
            diffuserIndex[k] = (diffuserIndex[k] + 1) % diffusers[k].count
            return delayed - diffusion * v
        }

        mutating func process(_ left: Float, _ right: Float) -> (Float, Float) {
            if countdown == 0 {
                countdown = 32
                if decayRate != decayRateTarget || damping != dampingTarget {
                    decayRate += controlCoefficient * (decayRateTarget - decayRate)
                    damping += controlCoefficient * (dampingTarget - damping)
                    if abs(decayRate - decayRateTarget) < 1e-5 * decayRateTarget { decayRate = decayRateTarget }
                    if abs(damping - dampingTarget) < 1e-5 { damping = dampingTarget }
                    updateGains()
                }
            }
            countdown -= 1
            mix += mixCoefficient * (mixTarget - mix)
            var l = left, r = right
            for k in 0..<4 { l = allpass(l, k) }
            for k in 4..<8 { r = allpass(r, k) }
            var wetLeft: Float = 0, wetRight: Float = 0
            var s = [Float](repeating: 0, count: 8)
            for i in 0..<8 {
                let output = lines[i][lineIndex[i]]  // written lengths[i] samples ago
                wetLeft += [1, 1, -1, -1, 1, 1, -1, -1][i] * output
                wetRight += [1, -1, 1, -1, -1, 1, -1, 1][i] * output
                states[i] = FeedbackDelayNetworkReferenceTests.flush(output + poles[i] * (states[i] - output))
                s[i] = gains[i] * states[i]
            }
            let mixed = FeedbackDelayNetworkReferenceTests.scalarHadamard(s)
            for i in 0..<8 {
                lines[i][lineIndex[i]] = FeedbackDelayNetworkReferenceTests.flush(mixed[i] * 0.353_553_39 + (i % 2 == 0 ? l : r))
                lineIndex[i] = (lineIndex[i] + 1) % lengths[i]
            }
            return (left + mix * (wetLeft * 0.353_553_39 - left), right + mix * (wetRight * 0.353_553_39 - right))
        }
    }

    /// Two seconds of random stereo noise with bursts and silences, decay, damping
    /// and mix moving mid-way: the kernel (block and per-frame paths) follows the
    /// scalar reference within 1e-5.
    @Test(arguments: [Float(0.5), 1, 2.5])
    func matchesTheScalarReference(size: Float) {
        var random = SeededRandom(seed: 0xFD_4E00 + UInt64(size * 10))
        let count = 96_000
        var left = [Float](repeating: 0, count: count)
        var right = [Float](repeating: 0, count: count)
        var level: Float = 0.5
        for n in 0..<count {
            if n % 4_000 == 0 { level = random.next() % 4 == 0 ? 0 : random.float(0.05...1) }
            left[n] = level * random.float(-1...1)
            right[n] = level * random.float(-1...1)
        }
        let blockKernel = FeedbackDelayNetworkReverb(decayTime: 3, size: size, damping: 0.4, mix: 0.7)
        let frameKernel = FeedbackDelayNetworkReverb(decayTime: 3, size: size, damping: 0.4, mix: 0.7)
        blockKernel.prepare(Self.spec)
        frameKernel.prepare(Self.spec)
        var reference = Reference(lengths: blockKernel.lineLengths, decay: 3, damping: 0.4, mix: 0.7)

        var outLeft = left, outRight = right
        var worst: Float = 0
        var start = 0
        while start < count {
            let end = min(count, start + 1 + Int(random.next() % 512))
            if start >= 48_000 && start < 48_600 {  // move the smoothed parameters
                for kernel in [blockKernel, frameKernel] { kernel.decayTime = 1.2; kernel.damping = 0.9; kernel.mix = 0.3 }
                reference.decayRateTarget = 1 / 1.2; reference.dampingTarget = 0.9; reference.mixTarget = 0.3
            }
            outLeft.withUnsafeMutableBufferPointer { l in
                outRight.withUnsafeMutableBufferPointer { r in
                    blockKernel.process(left: UnsafeMutableBufferPointer(rebasing: l[start..<end]),
                                        right: UnsafeMutableBufferPointer(rebasing: r[start..<end]))
                }
            }
            for n in start..<end {
                let expected = reference.process(left[n], right[n])
                let frame = frameKernel.processFrame(left: left[n], right: right[n])
                #expect(frame.left == outLeft[n] && frame.right == outRight[n], "block and frame paths differ at \(n)")
                worst = max(worst, abs(outLeft[n] - expected.0), abs(outRight[n] - expected.1))
            }
            start = end
        }
        print("FDN size \(size): largest difference from the scalar reference \(worst)")
        // README: within 5e-7 (measured 3.0e-7…4.8e-7); 3× that at most.
        #expect(worst < 1.5e-6)
        #expect(outLeft[47_000...].contains { abs($0) > 0.01 }, "the reference comparison saw a real tail")
    }
}
