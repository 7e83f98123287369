import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

@Suite struct TremoloTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    static func gains(_ tremolo: inout Tremolo, count: Int) -> [Float] {
        var ones = [Float](repeating: 1, count: count)
        ones.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: count, by: 256) {
                tremolo.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<min(count, start + 256)]))
            }
        }
        return ones
    }

    @Test(arguments: [(NoteDivision.eighth, 120.0), (.quarter.triplet, 90), (.sixteenth.dotted, 140)])
    func rateFollowsTempoAndDivision(_ division: NoteDivision, _ bpm: Double) {
        var tremolo = Tremolo(waveform: .sine, rate: .synced(division, bpm: bpm), depth: 1)
        tremolo.prepare(Self.spec)
        let g = Self.gains(&tremolo, count: 48_000 * 10)
        // Count gain troughs (crossings of the mid level, downward).
        let crossings = zip(g, g.dropFirst()).filter { $0 >= 0.5 && $1 < 0.5 }.count
        let expected = division.frequency(bpm: bpm) * 10
        #expect(abs(Double(crossings) - expected) <= 1, "\(crossings) vs \(expected)")
        #expect(abs(tremolo.frequency - division.frequency(bpm: bpm)) < 1e-9)
    }

    @Test func depthSetsTheGainRange() {
        for depth: Float in [0, 0.3, 1] {
            var tremolo = Tremolo(waveform: .triangle, rate: .hertz(5), depth: depth)
            tremolo.prepare(Self.spec)
            let g = Self.gains(&tremolo, count: 48_000)
            #expect(abs(g.max()! - 1) < 1e-3)
            #expect(abs(g.min()! - (1 - depth)) < 1e-3)
        }
    }

    @Test(arguments: [Waveform.square, .saw, .reverseSaw, .pulse])
    func edgedShapesAreSmoothedSoTheyNeverClick(_ waveform: Waveform) {
        var tremolo = Tremolo(waveform: waveform, rate: .hertz(4), depth: 1)
        tremolo.prepare(Self.spec)
        let g = Self.gains(&tremolo, count: 48_000)
        let jumps = zip(g.dropFirst(), g).map { abs($0 - $1) }
        // A 2 ms one-pole moves at most 1 − e^(−1/96) ≈ 0.0104 of a full-depth edge per sample.
        #expect(jumps.max()! < 0.011, "\(waveform): \(jumps.max()!)")
        // Yet the gain still reaches both ends of the range.
        #expect(g.max()! > 0.99 && g.min()! < 0.01)
    }

    @Test func sineIsNotSmoothedAndPhaseIsReadable() {
        var tremolo = Tremolo(waveform: .sine, rate: .hertz(2), depth: 0.5)
        tremolo.prepare(Self.spec)
        #expect(tremolo.phase == 0)
        _ = Self.gains(&tremolo, count: 6_000)
        #expect(abs(tremolo.phase - 0.25) < 1e-9)
        // At phase ¼ a sine tremolo is at full gain, with no smoothing lag.
        #expect(abs(tremolo.currentGain - 1) < 1e-4)
        tremolo.setPhaseOffset(0.5)
        #expect(abs(tremolo.phase - 0.75) < 1e-9)
    }

    @Test func stereoAppliesTheSameGainToBothChannels() {
        var mono = Tremolo(waveform: .square, rate: .hertz(7), depth: 0.8)
        var stereo = mono
        mono.prepare(Self.spec)
        stereo.prepare(Self.spec)
        var random = SeededRandom(seed: 9)
        var left = (0..<1024).map { _ in random.float(-1...1) }
        var right = left.map { -$0 }
        let expected = left.map { mono.processSample($0) }
        left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in stereo.process(left: l, right: r) } }
        #expect(left == expected)
        #expect(right == expected.map { -$0 })
    }

    @Test func depthChangesGlide() {
        var tremolo = Tremolo(waveform: .square, rate: .hertz(1), depth: 0)
        tremolo.prepare(Self.spec)
        tremolo.setDepth(1)
        let g = Self.gains(&tremolo, count: 24_000)
        let jumps = zip(g.dropFirst(), g).map { abs($0 - $1) }
        #expect(jumps.max()! < 0.011)
        #expect(tremolo.depth == 1)
    }

    /// Stereo blocks draw slow LFOs as lines between points 8 samples apart: at depth 0.8 within
    /// 0.4·(2π·f·8/fs)²/8 of the per-sample gain for a sine up to the 40 Hz limit, exactly per sample
    /// above it; a triangle's corner is cut by a chord (0.4·4·slope, a corner rounded over 8 samples);
    /// a square's jump becomes an 8-sample ramp ahead of its 2 ms smoother (≈ 4/96 of the step).
    @Test(arguments: [(Waveform.sine, 7.5, Float(4e-6)), (.sine, 39, Float(9e-5)), (.triangle, 13, Float(1.8e-3)),
                      (.square, 4, Float(0.04)), (.sine, 60, Float(0))])
    func stereoBlocksFollowThePerSampleGain(_ waveform: Waveform, _ hz: Double, _ tolerance: Float) {
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
        var blockwise = Tremolo(waveform: waveform, rate: .hertz(hz), depth: 0.8)
        var reference = blockwise
        blockwise.prepare(spec)
        reference.prepare(spec)
        var left = [Float](repeating: 1, count: 256)
        var right = [Float](repeating: 0.5, count: 256)
        var worst: Float = 0
        for _ in 0..<200 {
            for i in 0..<256 { left[i] = 1; right[i] = 0.5 }
            left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in blockwise.process(left: l, right: r) } }
            for i in 0..<256 {
                let g = reference.processSample(1)
                worst = max(worst, abs(left[i] - g), abs(right[i] - 0.5 * g))
            }
        }
        #expect(worst <= tolerance, "\(waveform) at \(hz) Hz: largest difference \(worst)")
    }
}
