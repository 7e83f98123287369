/// A value read off a tracked face, normalised to 0…1 before mapping.
///
/// Blendshapes arrive in 0…1 already. Head angles are normalised so that 0.5 is looking straight
/// at the camera: yaw and roll map −45°…+45° to 0…1, pitch maps −30°…+30°. `smile` is the mean of
/// mouthSmileLeft and mouthSmileRight, as the Hecate seed's `face.smile` source.
public enum FaceSignal: Hashable, Sendable, Codable, CustomStringConvertible {
    /// An ARKit blendshape by its name (e.g. "jawOpen", "browInnerUp"), never by index.
    case blendshape(String)
    case headYaw
    case headPitch
    case headRoll
    case smile

    /// The degrees either side of straight ahead that span 0…1 for the head angles.
    public static let yawRangeDegrees = 45.0
    public static let pitchRangeDegrees = 30.0
    public static let rollRangeDegrees = 45.0

    /// Normalises an angle in degrees to 0…1 with 0.5 at zero, clamped.
    public static func normalisedAngle(_ degrees: Double, range: Double) -> Double {
        guard degrees.isFinite else { return 0.5 }
        return min(max(0.5 + degrees / (2 * range), 0), 1)
    }

    /// The name used in pack files and on the command line: the blendshape name, or
    /// "face.yaw", "face.pitch", "face.roll", "face.smile" (as the seed writes them).
    public var description: String {
        switch self {
        case .blendshape(let name): return "face.arkit.\(name)"
        case .headYaw: return "face.yaw"
        case .headPitch: return "face.pitch"
        case .headRoll: return "face.roll"
        case .smile: return "face.smile"
        }
    }

    /// Parses the names `description` produces; a bare blendshape name is accepted too.
    public init?(_ text: String) {
        switch text {
        case "face.yaw": self = .headYaw
        case "face.pitch": self = .headPitch
        case "face.roll": self = .headRoll
        case "face.smile": self = .smile
        default:
            let name = text.hasPrefix("face.arkit.") ? String(text.dropFirst("face.arkit.".count)) : text
            guard !name.isEmpty, !name.contains("."), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { return nil }
            self = .blendshape(name)
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let signal = FaceSignal(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a face signal"))
        }
        self = signal
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
