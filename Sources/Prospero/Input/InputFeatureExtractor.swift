import Enobarbus
import Horatio

/// Turns hand and touch frames into `RouterInput`s, one stateful chain per source: a
/// `PositionStabilizer` on the position (bypassable), a `FingerCounter` for openness and a
/// `PinchDetector`'s distance for pinch depth. `lose(_:)` resets a source's chain, so a hand
/// that comes back starts fresh (no glide from where it was lost).
public struct InputFeatureExtractor: Sendable {
    /// Smooth positions with `PositionStabilizer` (EMA 0.6, velocity clamp 0.15, recovery after 5).
    public var stabilizes: Bool
    public var depthSource: MIDIRouterSettings.DepthSource
    /// Palm sizes (screen units) mapped to depth 0 and 1.
    public var palmSizeRange: ClosedRange<Double> = 0.05...0.35

    private var stabilizers: [PositionStabilizer]
    private var fingers: [FingerCounter]

    public init(stabilizes: Bool = true, depthSource: MIDIRouterSettings.DepthSource = .palmSize) {
        self.stabilizes = stabilizes
        self.depthSource = depthSource
        stabilizers = Array(repeating: PositionStabilizer(isBypassed: !stabilizes), count: InputSourceID.count)
        fingers = Array(repeating: FingerCounter(), count: InputSourceID.count)
    }

    /// The router input for `frame`, nil for faces and `.ended`.
    public mutating func input(for frame: TrackingFrame) -> RouterInput? {
        switch frame {
        case .hand(let hand):
            let id = InputSourceID.hand(hand.slot)
            let centreLandmarks: [HandLandmark] = [.wrist, .indexMCP, .middleMCP, .ringMCP, .pinkyMCP]
            var sum = SIMD2<Float>(0, 0)
            for l in centreLandmarks { sum += SIMD2(hand[l].x, hand[l].y) }
            let position = stabilized(sum / Float(centreLandmarks.count), id)
            let extended = fingers[id.denseIndex].update(hand)
            let depth: Double
            switch depthSource {
            case .palmSize:
                let p = Double(hand.palmSize)
                depth = Self.unit((p - palmSizeRange.lowerBound) / (palmSizeRange.upperBound - palmSizeRange.lowerBound))
            case .pinch:
                depth = PinchDetector.normalisedDistance(in: hand).map { Self.unit(1 - Double($0)) } ?? 0
            }
            return RouterInput(source: id, x: Double(position.x), y: Double(position.y),
                               expression: Double(extended) / 5, depth: depth)
        case .touch(let touch):
            let id = InputSourceID.touch(touch.slot)
            let position = stabilized(SIMD2(touch.x, touch.y), id)
            let p = Self.unit(Double(touch.pressure))
            return RouterInput(source: id, x: Double(position.x), y: Double(position.y), expression: p, depth: p)
        case .face, .ended:
            return nil
        }
    }

    /// Forgets a lost source's smoothing and finger state.
    public mutating func lose(_ source: InputSourceID) {
        stabilizers[source.denseIndex].reset()
        fingers[source.denseIndex].reset()
    }

    private mutating func stabilized(_ p: SIMD2<Float>, _ id: InputSourceID) -> SIMD2<Float> {
        stabilizers[id.denseIndex].isBypassed = !stabilizes
        return stabilizers[id.denseIndex].update(p)
    }

    static func unit(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
}
