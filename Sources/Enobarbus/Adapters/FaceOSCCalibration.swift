/// FaceOSC's per-performer neutral: each gesture divided by `/pose/scale`, averaged over the first
/// frames of a face (or set explicitly), and how far from it a gesture must move to reach weight 1.
///
/// FaceOSC reports raw distances, which depend on the face and its distance to the camera. Dividing by
/// the pose scale removes the distance; the neutral removes the face. A weight is then the relative
/// change from neutral over `span` (a fraction of the neutral value), clamped to 0…1.
public struct FaceOSCCalibration: Sendable, Hashable {
    /// Frames averaged for the neutral (about a second at FaceOSC's 30 fps).
    public var framesToAverage: Int
    /// The neutral of each gesture (scale-normalised), nil until calibrated.
    public private(set) var neutral: [Float]?
    private var sum: [Double]
    private var frames = 0

    /// Relative change from neutral that reads as weight 1, per gesture, from typical FaceOSC ranges:
    /// the mouth opens to about four times its closed height, widens about 25 % in a smile and narrows
    /// about 20 % in a pucker; brows rise about 15 %, eyes close by half, nostrils flare about 30 %.
    public var mouthOpenSpan: Float = 3
    public var smileSpan: Float = 0.25
    public var puckerSpan: Float = 0.2
    public var browSpan: Float = 0.15
    public var blinkSpan: Float = 0.5
    public var sneerSpan: Float = 0.3

    public init(framesToAverage: Int = 30) {
        self.framesToAverage = max(1, framesToAverage)
        sum = Array(repeating: 0, count: FaceOSCGesture.allCases.count)
    }

    /// A calibration with a known neutral (scale-normalised gestures in `FaceOSCGesture` order).
    public init(neutral: [Float]) {
        self.init(framesToAverage: 1)
        precondition(neutral.count == FaceOSCGesture.allCases.count, "one neutral per FaceOSC gesture")
        self.neutral = neutral
    }

    public var isCalibrated: Bool { neutral != nil }

    /// Starts a new neutral average (a new performer, or the `calibrate` command).
    public mutating func restart() {
        neutral = nil
        sum = Array(repeating: 0, count: sum.count)
        frames = 0
    }

    /// Adds one frame's normalised gestures to the average; returns true once calibrated.
    @discardableResult
    public mutating func observe(_ normalised: [Float]) -> Bool {
        guard neutral == nil else { return true }
        guard normalised.count == sum.count, normalised.allSatisfy({ $0.isFinite && $0 > 0 }) else { return false }
        for k in sum.indices { sum[k] += Double(normalised[k]) }
        frames += 1
        if frames >= framesToAverage { neutral = sum.map { Float($0 / Double(frames)) } }
        return neutral != nil
    }

    /// Relative change of gesture `g` from neutral: (value − neutral) / neutral; 0 before calibration.
    public func change(_ g: FaceOSCGesture, in normalised: [Float]) -> Float {
        guard let neutral, neutral[g.rawValue] > 0 else { return 0 }
        return (normalised[g.rawValue] - neutral[g.rawValue]) / neutral[g.rawValue]
    }
}
