/// Why a datagram is not an iFacialMocap (or FaceMotion3D) frame. Each case names the offending token.
public enum IFacialMocapDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The datagram is not UTF-8 text, or is empty.
    case notText
    /// A blendshape token without a `-` (v1) or `&` (v2) between name and value.
    case missingSeparator(token: String)
    /// A blendshape value that is not an integer 0…100 (or a number in that range).
    case badValue(token: String)
    /// A transform token (`head#…`, `rightEye#…`, `leftEye#…`) with the wrong count of numbers or a non-number.
    case badTransform(token: String)
    /// Text with no blendshape, transform or tracking-status token at all.
    case noFaceData

    public var description: String {
        switch self {
        case .notText: return "iFacialMocap: the datagram is empty or not UTF-8 text"
        case .missingSeparator(let t): return "iFacialMocap: token \"\(t)\" has no '-' or '&' between name and value"
        case .badValue(let t): return "iFacialMocap: token \"\(t)\" has a value that is not a number 0…100"
        case .badTransform(let t): return "iFacialMocap: transform \"\(t)\" needs name#numbers (head 6, eyes 3)"
        case .noFaceData: return "iFacialMocap: no blendshape, transform or trackingStatus token"
        }
    }
}
