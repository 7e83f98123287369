/// The bridge's answer to one frame.
public struct StudioCameraResult: Sendable, Equatable {
    public var id: UInt32
    public var stream: UInt16
    /// Milliseconds the bridge spent on the frame.
    public var trackingMilliseconds: Double?
    /// The face it reports (after the tracker settled), nil without one.
    public var face: StudioCameraFace?
    /// The face was lost at this frame.
    public var ended = false
    /// The hands it reports (the hands model), empty without any.
    public var hands: [StudioCameraHand] = []
    /// Hand slots lost at this frame (the hands model, or a stream that left it).
    public var endedHands: [Int] = []
    /// Landmarks x, y (0…1 of the image, not mirrored), also while a face settles; nil without a face.
    public var points: [Float]?
    /// The frame could not be tracked (not a JPEG, too many streams).
    public var error: String?

    public init(id: UInt32, stream: UInt16) {
        self.id = id
        self.stream = stream
    }
}
