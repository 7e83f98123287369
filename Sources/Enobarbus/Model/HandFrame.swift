/// One tracked hand at one instant.
///
/// Landmarks are MediaPipe's: x and y normalised to 0…1 by image width and height, origin
/// top-left, y down; z is depth relative to the wrist on roughly the scale of x (smaller = closer).
public struct HandFrame: Sendable, Hashable {
    /// Hand slot 0…3.
    public var slot: Int
    /// Seconds on the receiver's monotonic clock (or since the start of a recording).
    public var timestamp: Double
    /// 21 points in `HandLandmark` order.
    public var landmarks: [SIMD3<Float>]
    public var handedness: Handedness
    /// Tracker confidence 0…1 (1 when the sender gives none).
    public var confidence: Float

    public init(slot: Int, timestamp: Double, landmarks: [SIMD3<Float>], handedness: Handedness = .unknown,
                confidence: Float = 1) {
        precondition(landmarks.count == HandLandmark.count, "a hand frame has 21 landmarks")
        self.slot = slot
        self.timestamp = timestamp
        self.landmarks = landmarks
        self.handedness = handedness
        self.confidence = confidence
    }

    /// The position of one landmark.
    @inlinable
    public subscript(landmark: HandLandmark) -> SIMD3<Float> {
        get { landmarks[landmark.rawValue] }
        set { landmarks[landmark.rawValue] = newValue }
    }

    /// Palm size: wrist to middle-finger MCP (landmark 9) in the x-y plane, the scale that
    /// pinch distances and One Euro β are normalised by.
    public var palmSize: Float {
        let d = self[.middleMCP] - self[.wrist]
        return (d.x * d.x + d.y * d.y).squareRoot()
    }
}
