/// What `SenderDatagramDecoder` made of one datagram.
public struct SenderDecoding: Sendable, Hashable {
    public var format: SenderDatagramFormat
    /// Frames from the senders this decoder owns (iFacialMocap, Live Link Face, FaceOSC, mpmocap, Visage).
    public var frames: [TrackingFrame]
    /// The OSC messages none of those claimed, as one packet for `OSCFrameAssembler` (nil when none are left).
    public var remainingOSC: OSCPacket?
    /// True when the packet carried Wekinator `/wek/outputs` (read them from `wekinator.outputs`).
    public var wekinatorOutputsChanged: Bool
    /// The sender decoded here whose message or datagram made `frames` (the last one in a mixed
    /// packet); nil when this decoder claimed nothing (everything is in `remainingOSC`).
    public var sender: InputSender? = nil
}
