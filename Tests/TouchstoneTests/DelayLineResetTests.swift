import Testing
import Touchstone

/// `reset()` no longer clears the line (it restarts a count of samples written and reads taps from
/// before the reset as 0); the oracle is a freshly prepared line (zeroed in `prepare`) fed the same
/// input: outputs identical, sample for sample, through the guarded phase and past it.
@Suite struct DelayLineResetTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 1)

    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 1000) / 2000
        }
    }

    static func makeLine() -> DelayLine {
        let line = DelayLine(maximumDelay: 0.5, delayTime: 0.1, feedback: 0.7, mix: 0.6)
        line.dampingCutoff = 4_000
        return line
    }

    /// Blocks of varying sizes, a modulated block, and single samples, with a delay-time change midway.
    static func run(_ line: DelayLine, _ input: [Float]) -> [Float] {
        var x = input
        let modulation = (0..<512).map { Float($0 % 64) * 0.000_05 }
        let sizes = [512, 37, 1, 256, 64, 500]
        var start = 0, k = 0
        while start < x.count {
            let n = min(sizes[k % sizes.count], x.count - start)
            x.withUnsafeMutableBufferPointer { b in
                let block = UnsafeMutableBufferPointer(rebasing: b[start..<(start + n)])
                if k % 3 == 1 {
                    modulation.withUnsafeBufferPointer { line.process(block, modulation: $0) }
                } else {
                    line.process(block)
                }
            }
            start += n
            k += 1
            if start < x.count {
                x[start] = line.processSample(x[start])
                start += 1
            }
            if k == 20 { line.delayTime = 0.45 }  // a glide towards the longest taps, inside the guarded phase
        }
        return x
    }

    @Test func resetSoundsLikeAClearedLine() {
        let input = Self.noise(3_000, seed: 9) + [Float](repeating: 0, count: 57_000)
        let used = Self.makeLine()
        used.prepare(Self.spec)
        _ = Self.run(used, Self.noise(40_000, seed: 4))  // a loud, fed-back line
        used.delayTime = 0.1
        used.reset()
        let fresh = Self.makeLine()
        fresh.prepare(Self.spec)
        let a = Self.run(used, input)
        let b = Self.run(fresh, input)
        let first = a.indices.first { a[$0] != b[$0] }
        #expect(first == nil, "first differing sample \(first ?? -1)")
        #expect(a[6_000...].contains { abs($0) > 0.01 }, "the echoes sound")
    }

    @Test func resetAfterANaNInputIsSilent() {
        let line = Self.makeLine()
        line.prepare(Self.spec)
        var poison = [Float](repeating: 0.3, count: 128)
        poison[50] = .nan
        _ = Self.run(line, poison)
        line.reset()
        #expect(Self.run(line, [Float](repeating: 0, count: 60_000)).allSatisfy { $0 == 0 })
    }
}
