import Testing
import Touchstone

/// `reset()` no longer clears the delay memory (it restarts a step count and guards reads of
/// steps from before the reset); what it must keep is the sound of a cleared reverb. The oracle is
/// a reverb freshly prepared (its memory zeroed in `prepare`), fed the same input: the outputs
/// must be identical, sample for sample, through the guarded phase and past it.
@Suite struct FeedbackDelayNetworkReverbResetTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2)

    /// A deterministic noise burst, then an impulse train: excites every line and diffuser.
    static func input(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Float(Int64(bitPattern: state >> 11) % 1000) / 2000
            return i < 4800 ? noise : (i % 9_001 == 0 ? 0.8 : 0)
        }
    }

    /// Runs `reverb` over `left`/`right` in blocks of varying sizes, with one `processFrame`
    /// call between blocks, and returns the output.
    static func run(_ reverb: FeedbackDelayNetworkReverb, _ left: [Float], _ right: [Float]) -> [Float] {
        var l = left, r = right
        let sizes = [512, 37, 1, 256, 64, 500]
        var start = 0
        var k = 0
        while start < l.count {
            let n = min(sizes[k % sizes.count], l.count - start)
            k += 1
            l.withUnsafeMutableBufferPointer { lb in
                r.withUnsafeMutableBufferPointer { rb in
                    reverb.process(left: UnsafeMutableBufferPointer(rebasing: lb[start..<(start + n)]),
                                   right: UnsafeMutableBufferPointer(rebasing: rb[start..<(start + n)]))
                }
            }
            start += n
            if start < l.count {
                let frame = reverb.processFrame(left: l[start], right: r[start])
                l[start] = frame.left
                r[start] = frame.right
                start += 1
            }
        }
        return zip(l, r).flatMap { [$0, $1] }
    }

    static func makeReverb(size: Float) -> FeedbackDelayNetworkReverb {
        FeedbackDelayNetworkReverb(decayTime: 3, size: size, damping: 0.4, mix: 0.7)
    }

    @Test(arguments: [Float(1), 4, 0.25])
    func resetSoundsLikeAClearedReverb(size: Float) {
        // 1.2 s: past the guarded phase (16 384 steps, 0.34 s at 48 kHz) and through the tail.
        let count = 57_600
        let left = Self.input(count, seed: 7), right = Self.input(count, seed: 11)

        let used = Self.makeReverb(size: 2)
        used.prepare(Self.spec)
        _ = Self.run(used, Self.input(96_000, seed: 3), Self.input(96_000, seed: 5))  // a loud tail in every line
        used.size = size
        used.reset()

        let fresh = Self.makeReverb(size: size)
        fresh.prepare(Self.spec)

        let afterReset = Self.run(used, left, right)
        let cleared = Self.run(fresh, left, right)
        let firstDifference = afterReset.indices.first { afterReset[$0] != cleared[$0] }
        #expect(firstDifference == nil, "size \(size): first differing sample (interleaved) \(firstDifference ?? -1)")
        // Not vacuous: the reverb sounds (wet energy well above the dry input's share).
        #expect(afterReset.contains { abs($0) > 0.01 })
    }

    @Test func resetAfterANaNInputIsSilentAndFinite() {
        let reverb = Self.makeReverb(size: 1)
        reverb.prepare(Self.spec)
        var poison = [Float](repeating: 0.5, count: 256)
        poison[100] = .nan
        _ = Self.run(reverb, poison, poison)
        reverb.reset()
        // Silence in: silence out through the guarded phase and after it, though the memory still holds NaN.
        let out = Self.run(reverb, [Float](repeating: 0, count: 24_000), [Float](repeating: 0, count: 24_000))
        #expect(out.allSatisfy { $0 == 0 })
    }

    @Test func sizeChangedDuringTheGuardedPhaseMatchesAClearedReverb() {
        let count = 48_000
        let left = Self.input(count, seed: 21), right = Self.input(count, seed: 23)
        let used = Self.makeReverb(size: 3)
        used.prepare(Self.spec)
        _ = Self.run(used, Self.input(48_000, seed: 1), Self.input(48_000, seed: 2))
        used.reset()
        let fresh = Self.makeReverb(size: 3)
        fresh.prepare(Self.spec)
        // 4 000 steps after the reset (still guarded), the lines grow to the largest size.
        var a = Self.run(used, Array(left[..<4_000]), Array(right[..<4_000]))
        var b = Self.run(fresh, Array(left[..<4_000]), Array(right[..<4_000]))
        used.size = 4
        fresh.size = 4
        a += Self.run(used, Array(left[4_000...]), Array(right[4_000...]))
        b += Self.run(fresh, Array(left[4_000...]), Array(right[4_000...]))
        #expect(a == b)
    }
}
