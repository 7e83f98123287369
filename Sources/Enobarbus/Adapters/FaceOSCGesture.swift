/// FaceOSC's gesture values (`/gesture/…`), raw landmark distances in capture pixels.
public enum FaceOSCGesture: Int, CaseIterable, Sendable, Hashable {
    case mouthWidth, mouthHeight, eyebrowLeft, eyebrowRight, eyeLeft, eyeRight, jaw, nostrils

    /// The OSC address FaceOSC sends it on.
    public var address: String {
        switch self {
        case .mouthWidth: return "/gesture/mouth/width"
        case .mouthHeight: return "/gesture/mouth/height"
        case .eyebrowLeft: return "/gesture/eyebrow/left"
        case .eyebrowRight: return "/gesture/eyebrow/right"
        case .eyeLeft: return "/gesture/eye/left"
        case .eyeRight: return "/gesture/eye/right"
        case .jaw: return "/gesture/jaw"
        case .nostrils: return "/gesture/nostrils"
        }
    }

    static let byAddress: [String: FaceOSCGesture] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.address, $0) })
}
