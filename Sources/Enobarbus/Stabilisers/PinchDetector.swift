/// Detects a thumb–index pinch with separate on and off thresholds (a Schmitt trigger).
///
/// The distance is thumb tip (4) to index tip (8) in the x-y plane, divided by the palm size
/// (wrist to middle MCP), so it does not depend on how far the hand is from the camera.
public struct PinchDetector: Sendable, Hashable {
    /// Normalised distance below which a pinch starts. Default 0.25.
    public var onBelow: Float
    /// Normalised distance above which a pinch ends (> `onBelow`). Default 0.4.
    public var offAbove: Float
    public private(set) var isPinching = false
    /// The last normalised distance, nil before the first frame or when the palm size is 0.
    public private(set) var distance: Float?

    public init(onBelow: Float = 0.25, offAbove: Float = 0.4) {
        self.onBelow = onBelow
        self.offAbove = offAbove
    }

    /// The normalised thumb–index distance of `hand`, nil when the palm size is zero.
    public static func normalisedDistance(in hand: HandFrame) -> Float? {
        let palm = hand.palmSize
        guard palm > 1e-6, palm.isFinite else { return nil }
        let d = planarDistance(hand[.thumbTip], hand[.indexTip]) / palm
        return d.isFinite ? d : nil
    }

    /// Updates from `hand` and returns whether the hand is pinching.
    @discardableResult
    public mutating func update(_ hand: HandFrame) -> Bool {
        guard let d = Self.normalisedDistance(in: hand) else { distance = nil; return isPinching }
        distance = d
        if isPinching {
            if d > offAbove { isPinching = false }
        } else if d < onBelow {
            isPinching = true
        }
        return isPinching
    }

    public mutating func reset() {
        isPinching = false
        distance = nil
    }
}
