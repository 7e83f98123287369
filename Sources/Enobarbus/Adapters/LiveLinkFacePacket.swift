/// One decoded Live Link Face datagram.
public struct LiveLinkFacePacket: Sendable, Hashable {
    /// "$" + the phone's UUID.
    public var deviceID: String
    /// The subject name set in the app.
    public var subject: String
    public var frameNumber: Int32
    public var subFrame: Float
    /// Frame rate as numerator / denominator (e.g. 60 / 1).
    public var frameRate: Int32
    public var frameRateDenominator: Int32
    /// The face: 52 blendshapes 0…1 and the head in degrees (see `LiveLinkFaceDecoder.headDegreesPerUnit`).
    public var face: FaceFrame
    /// The 61 values as sent, in Unreal's order (`ARKitBlendshape.liveLinkFaceOrderNames`, then head and eyes).
    public var rawValues: [Float]
}
