/// What a receiver sends the phone to start iFacialMocap (or FaceMotion3D) streaming, protocols.md §1.3.
///
/// The receiver sends `payload` by UDP to the phone's `phonePort`; the phone then streams about 60
/// frames a second back to the receiver's `receiverPort` (the same number for iFacialMocap). The
/// socket work belongs at the platform edge; this type only knows the bytes and ports.
public enum IFacialMocapHandshake: Sendable, Hashable {
    /// iFacialMocap, v1 (`-`) or v2 (`&`) value syntax.
    case iFacialMocap(version2: Bool)
    /// FaceMotion3D (same frame grammar, its own handshake and port).
    case faceMotion3D

    /// UDP port the phone listens on for the handshake.
    public var phonePort: Int {
        switch self {
        case .iFacialMocap: return 49983
        case .faceMotion3D: return 49993
        }
    }

    /// UDP port the phone streams frames to (any port still decodes them if the app is set so).
    public var receiverPort: Int { phonePort }

    /// The handshake datagram.
    public var payload: [UInt8] {
        switch self {
        case .iFacialMocap(let v2):
            return Array(("iFacialMocap_sahuasouryya9218sauhuiayeta91555dy3719" + (v2 ? "|sendDataVersion=v2" : "")).utf8)
        case .faceMotion3D:
            return Array("FACEMOTION3D_OtherStreaming".utf8)
        }
    }
}
