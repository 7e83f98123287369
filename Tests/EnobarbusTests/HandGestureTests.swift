import Enobarbus
import Testing

/// Hand-built landmark sets. Every finger lies on the line x = 0.5 above the wrist (0.5, 0.9),
/// PIP joints 0.3 from the wrist, so a fingertip at height y has extension ratio (0.9 − y) / 0.3.
/// The thumb lies on y = 0.7 with its IP joint 0.3 from the pinky MCP (0.6, 0.7), so a thumb
/// tip at x has ratio (0.6 − x) / 0.3.
enum SyntheticHand {
    static func make(tipRatios: [Float], thumbTip: SIMD2<Float>? = nil, indexTip: SIMD2<Float>? = nil) -> HandFrame {
        var p = Array(repeating: SIMD3<Float>(0.5, 0.9, 0), count: 21)
        p[HandLandmark.pinkyMCP.rawValue] = SIMD3(0.6, 0.7, 0)
        p[HandLandmark.middleMCP.rawValue] = SIMD3(0.5, 0.7, 0)  // palm size 0.2
        p[HandLandmark.thumbIP.rawValue] = SIMD3(0.3, 0.7, 0)
        p[HandLandmark.thumbTip.rawValue] = SIMD3(0.6 - 0.3 * tipRatios[0], 0.7, 0)
        for finger in [Finger.index, .middle, .ring, .pinky] {
            p[finger.pip.rawValue] = SIMD3(0.5, 0.6, 0)
            p[finger.tip.rawValue] = SIMD3(0.5, 0.9 - 0.3 * tipRatios[finger.rawValue], 0)
        }
        if let t = thumbTip { p[HandLandmark.thumbTip.rawValue] = SIMD3(t.x, t.y, 0) }
        if let t = indexTip { p[HandLandmark.indexTip.rawValue] = SIMD3(t.x, t.y, 0) }
        return HandFrame(slot: 0, timestamp: 0, landmarks: p)
    }
}

@Suite struct FingerCounterTests {
    @Test func ratiosMatchTheGeometry() {
        let hand = SyntheticHand.make(tipRatios: [1.333, 0.5, 1.08, 1.3, 0.9])
        #expect(abs(FingerCounter.extensionRatio(of: .thumb, in: hand) - 1.333) < 1e-4)
        #expect(abs(FingerCounter.extensionRatio(of: .index, in: hand) - 0.5) < 1e-4)
        #expect(abs(FingerCounter.extensionRatio(of: .middle, in: hand) - 1.08) < 1e-4)
    }

    @Test(arguments: [
        // ratios (thumb, index, middle, ring, pinky) → fingers counted from a fresh counter
        ([Float](arrayLiteral: 0.3, 0.5, 0.5, 0.5, 0.5), 0),      // fist
        ([Float](arrayLiteral: 1.3, 1.3, 1.3, 1.3, 1.3), 5),      // open hand
        ([Float](arrayLiteral: 0.3, 1.3, 1.3, 0.5, 0.5), 2),      // victory
        ([Float](arrayLiteral: 1.3, 0.5, 0.5, 0.5, 1.3), 2),      // shaka
        ([Float](arrayLiteral: 0.3, 1.3, 1.08, 0.5, 0.5), 1),     // middle in the band: not yet extended
    ])
    func counts(ratios: [Float], expected: Int) {
        var counter = FingerCounter()
        #expect(counter.update(SyntheticHand.make(tipRatios: ratios)) == expected)
    }

    @Test func hysteresisHoldsAFingerOnTheEdge() {
        var counter = FingerCounter()
        let folded: [Float] = [0.3, 0.5, 0.5, 0.5, 0.5]
        func index(_ r: Float) -> HandFrame { var q = folded; q[1] = r; return SyntheticHand.make(tipRatios: q) }
        // Index: folded → band → extended → band → below 1.0 → band.
        let counts = [0.5, 1.08, 1.3, 1.08, 0.95, 1.08].map { counter.update(index(Float($0))) }
        #expect(counts == [0, 0, 1, 1, 0, 0])
    }

    @Test func noFlickerAroundTheThreshold() {
        let folded: [Float] = [0.3, 0.5, 0.5, 0.5, 0.5]
        func flips(_ counter: inout FingerCounter) -> Int {
            var last = -1, flips = 0
            for k in 0..<40 {
                var q = folded
                q[1] = k % 2 == 0 ? 1.05 : 1.12  // a finger held half-straight, tracker noise ±0.035
                let c = counter.update(SyntheticHand.make(tipRatios: q))
                if last >= 0, c != last { flips += 1 }
                last = c
            }
            return flips
        }
        var withHysteresis = FingerCounter()
        #expect(flips(&withHysteresis) == 0)
        var withoutHysteresis = FingerCounter(extendAbove: 1.085, foldBelow: 1.085)
        #expect(flips(&withoutHysteresis) == 39)
    }
}

@Suite struct PinchDetectorTests {
    /// Thumb and index tips `d` palm sizes apart (palm size 0.2).
    func hand(_ d: Float) -> HandFrame {
        SyntheticHand.make(tipRatios: [1, 1, 1, 1, 1], thumbTip: SIMD2(0.4, 0.5), indexTip: SIMD2(0.4 + 0.2 * d, 0.5))
    }

    @Test func distanceIsNormalisedByPalmSize() {
        #expect(abs(PinchDetector.normalisedDistance(in: hand(0.3))! - 0.3) < 1e-5)
        #expect(abs(hand(0).palmSize - 0.2) < 1e-6)
    }

    @Test func separateOnAndOffThresholds() {
        var p = PinchDetector()
        let states = [0.5, 0.3, 0.2, 0.3, 0.38, 0.45, 0.3, 0.24].map { p.update(hand(Float($0))) }
        #expect(states == [false, false, true, true, true, false, false, true])
    }

    @Test func degenerateHandDoesNotChangeState() {
        var p = PinchDetector()
        _ = p.update(hand(0.1))
        let flat = HandFrame(slot: 0, timestamp: 0, landmarks: Array(repeating: SIMD3(0.5, 0.5, 0), count: 21))
        #expect(p.update(flat) == true)
        #expect(p.distance == nil)
    }
}
