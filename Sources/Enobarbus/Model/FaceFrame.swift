/// One tracked face at one instant: 52 blendshape weights and the head's rotation.
public struct FaceFrame: Sendable, Hashable {
    /// Seconds on the receiver's monotonic clock (or since the start of a recording).
    public var timestamp: Double
    public var blendshapes: BlendshapeWeights
    /// Degrees; see `HeadRotation` for the sign convention.
    public var head: HeadRotation

    public init(timestamp: Double, blendshapes: BlendshapeWeights = BlendshapeWeights(), head: HeadRotation = .neutral) {
        self.timestamp = timestamp
        self.blendshapes = blendshapes
        self.head = head
    }
}
