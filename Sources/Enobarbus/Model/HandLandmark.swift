/// The 21 hand landmarks in MediaPipe's `HandLandmark` order.
///
/// PIP joints are 6, 10, 14, 18; the thumb has its IP joint (3) in that place.
public enum HandLandmark: Int, CaseIterable, Sendable, Hashable, Codable {
    case wrist = 0
    case thumbCMC, thumbMCP, thumbIP, thumbTip
    case indexMCP, indexPIP, indexDIP, indexTip
    case middleMCP, middlePIP, middleDIP, middleTip
    case ringMCP, ringPIP, ringDIP, ringTip
    case pinkyMCP, pinkyPIP, pinkyDIP, pinkyTip

    /// The number of landmarks (21).
    public static let count = 21
}

/// The five fingers, for counting and per-finger state.
public enum Finger: Int, CaseIterable, Sendable, Hashable, Codable {
    case thumb, index, middle, ring, pinky

    /// The fingertip landmark.
    public var tip: HandLandmark { HandLandmark(rawValue: 4 + 4 * rawValue)! }
    /// The PIP joint (the IP joint for the thumb).
    public var pip: HandLandmark { HandLandmark(rawValue: 3 + 4 * rawValue - (rawValue == 0 ? 0 : 1))! }
    /// The MCP (knuckle) joint.
    public var mcp: HandLandmark { HandLandmark(rawValue: 2 + 4 * rawValue - (rawValue == 0 ? 0 : 1))! }
}

/// Which hand a frame shows, as the performer sees it (after any "swap L/R" setting).
public enum Handedness: String, Sendable, Hashable, Codable, CaseIterable {
    case left, right, unknown

    /// Parses "left"/"right" (any case, or "l"/"r"); anything else is `.unknown`.
    public init(parsing text: String) {
        switch text.lowercased() {
        case "left", "l": self = .left
        case "right", "r": self = .right
        default: self = .unknown
        }
    }

    /// Left and right exchanged (for mirrored cameras); unknown stays unknown.
    public var swapped: Handedness {
        switch self {
        case .left: return .right
        case .right: return .left
        case .unknown: return .unknown
        }
    }
}
