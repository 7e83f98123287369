/// Counts extended fingers, with hysteresis so a finger on the edge does not flicker.
///
/// A finger's extension ratio is the fingertip's distance from the wrist divided by its PIP
/// joint's distance from the wrist (x-y plane; MediaPipe's z is too noisy): about 1.3 for a
/// straight finger, below 1 when it curls back toward the palm. The thumb folds across the
/// palm rather than toward the wrist, so it is measured from the pinky MCP (landmark 17), tip
/// against its IP joint. A finger becomes extended when its ratio rises above `extendAbove`
/// and folded only when it falls below `foldBelow`; in between it keeps its state.
public struct FingerCounter: Sendable, Hashable {
    /// Ratio above which a folded finger becomes extended. Default 1.15.
    public var extendAbove: Float
    /// Ratio below which an extended finger becomes folded (< `extendAbove`). Default 1.0.
    public var foldBelow: Float
    /// Per finger, in `Finger` order.
    public private(set) var extended: [Bool] = [false, false, false, false, false]

    public init(extendAbove: Float = 1.15, foldBelow: Float = 1.0) {
        self.extendAbove = extendAbove
        self.foldBelow = foldBelow
    }

    /// The extension ratio of `finger` (see the type's comment); 0 when the joint sits on its reference.
    public static func extensionRatio(of finger: Finger, in hand: HandFrame) -> Float {
        let reference = finger == .thumb ? hand[.pinkyMCP] : hand[.wrist]
        let tip = planarDistance(hand[finger.tip], reference)
        let pip = planarDistance(hand[finger.pip], reference)
        return pip > 1e-6 ? tip / pip : 0
    }

    /// Updates the finger states from `hand` and returns how many fingers are extended (0…5).
    @discardableResult
    public mutating func update(_ hand: HandFrame) -> Int {
        for finger in Finger.allCases {
            let r = Self.extensionRatio(of: finger, in: hand)
            guard r.isFinite else { continue }
            if extended[finger.rawValue] {
                if r < foldBelow { extended[finger.rawValue] = false }
            } else if r > extendAbove {
                extended[finger.rawValue] = true
            }
        }
        return count
    }

    /// Fingers currently extended.
    public var count: Int { extended.lazy.filter { $0 }.count }

    /// Forgets the state (all folded).
    public mutating func reset() { extended = [false, false, false, false, false] }
}

@inline(__always)
func planarDistance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    let dx = a.x - b.x, dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}
