/// What the camera bridge tracks in a stream's frames: Hecate's face mesh, or the hands model (21 landmarks
/// per hand, up to four hands). A page picks it with the frame's kind (``StudioCameraFrame``).
public enum StudioCameraModel: UInt8, Sendable, Equatable {
    case face = 0
    case hands = 1

    /// The binary message kind a page sends this model's frames with (0x20 face, 0x21 hands).
    public var frameKind: UInt8 { self == .face ? 0x20 : 0x21 }

    /// The model of a frame kind, nil for any other byte.
    public init?(frameKind: UInt8) {
        switch frameKind {
        case 0x20: self = .face
        case 0x21: self = .hands
        default: return nil
        }
    }
}
