/// A tracked hand as the bridge reports it: the slot it keeps while tracked (0…3), the subject's own side,
/// the model's confidence (0…1) and 21 landmarks x, y, z (x, y in 0…1 of the image, not mirrored; z
/// MediaPipe's depth relative to the wrist), the values `/prospero/hand` carries.
public struct StudioCameraHand: Sendable, Equatable {
    public static let landmarkCount = 21

    public var slot: Int
    /// "left" or "right".
    public var side: String
    public var confidence: Double
    /// 63 values: x, y, z of each landmark in MediaPipe's order (wrist first).
    public var landmarks: [Float]

    public init(slot: Int, side: String, confidence: Double, landmarks: [Float]) {
        self.slot = slot
        self.side = side
        self.confidence = confidence
        self.landmarks = landmarks
    }
}
