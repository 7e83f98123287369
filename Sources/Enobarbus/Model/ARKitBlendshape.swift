/// The 52 ARKit face blendshapes, in ARKit's alphabetical order (`rawValue` is the dense index 0…51).
///
/// Left and right are the performer's own. Senders each use their own order (Face Cap, Live Link
/// Face, MediaPipe, ZIG SIM), so adapters always map by name (`init?(normalisedName:)`), never by index.
public enum ARKitBlendshape: Int, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case browDownLeft
    case browDownRight
    case browInnerUp
    case browOuterUpLeft
    case browOuterUpRight
    case cheekPuff
    case cheekSquintLeft
    case cheekSquintRight
    case eyeBlinkLeft
    case eyeBlinkRight
    case eyeLookDownLeft
    case eyeLookDownRight
    case eyeLookInLeft
    case eyeLookInRight
    case eyeLookOutLeft
    case eyeLookOutRight
    case eyeLookUpLeft
    case eyeLookUpRight
    case eyeSquintLeft
    case eyeSquintRight
    case eyeWideLeft
    case eyeWideRight
    case jawForward
    case jawLeft
    case jawOpen
    case jawRight
    case mouthClose
    case mouthDimpleLeft
    case mouthDimpleRight
    case mouthFrownLeft
    case mouthFrownRight
    case mouthFunnel
    case mouthLeft
    case mouthLowerDownLeft
    case mouthLowerDownRight
    case mouthPressLeft
    case mouthPressRight
    case mouthPucker
    case mouthRight
    case mouthRollLower
    case mouthRollUpper
    case mouthShrugLower
    case mouthShrugUpper
    case mouthSmileLeft
    case mouthSmileRight
    case mouthStretchLeft
    case mouthStretchRight
    case mouthUpperUpLeft
    case mouthUpperUpRight
    case noseSneerLeft
    case noseSneerRight
    case tongueOut

    /// The number of blendshapes (52).
    public static let count = 52

    /// ARKit's camelCase name, e.g. `jawOpen`.
    public var name: String { Self.names[rawValue] }

    public var description: String { name }

    @usableFromInline
    static let names: [String] = [
        "browDownLeft",
        "browDownRight",
        "browInnerUp",
        "browOuterUpLeft",
        "browOuterUpRight",
        "cheekPuff",
        "cheekSquintLeft",
        "cheekSquintRight",
        "eyeBlinkLeft",
        "eyeBlinkRight",
        "eyeLookDownLeft",
        "eyeLookDownRight",
        "eyeLookInLeft",
        "eyeLookInRight",
        "eyeLookOutLeft",
        "eyeLookOutRight",
        "eyeLookUpLeft",
        "eyeLookUpRight",
        "eyeSquintLeft",
        "eyeSquintRight",
        "eyeWideLeft",
        "eyeWideRight",
        "jawForward",
        "jawLeft",
        "jawOpen",
        "jawRight",
        "mouthClose",
        "mouthDimpleLeft",
        "mouthDimpleRight",
        "mouthFrownLeft",
        "mouthFrownRight",
        "mouthFunnel",
        "mouthLeft",
        "mouthLowerDownLeft",
        "mouthLowerDownRight",
        "mouthPressLeft",
        "mouthPressRight",
        "mouthPucker",
        "mouthRight",
        "mouthRollLower",
        "mouthRollUpper",
        "mouthShrugLower",
        "mouthShrugUpper",
        "mouthSmileLeft",
        "mouthSmileRight",
        "mouthStretchLeft",
        "mouthStretchRight",
        "mouthUpperUpLeft",
        "mouthUpperUpRight",
        "noseSneerLeft",
        "noseSneerRight",
        "tongueOut",
    ]

    /// Keys are lower-case names with left/right spelled out, e.g. `mouthsmileleft`.
    static let byNormalisedName: [String: ARKitBlendshape] = {
        var table: [String: ARKitBlendshape] = [:]
        for shape in ARKitBlendshape.allCases { table[shape.name.lowercased()] = shape }
        return table
    }()

    /// Finds a blendshape by name in any sender's spelling: ARKit camelCase (`jawOpen`),
    /// ZIG SIM lower case (`jawopen`), iFacialMocap `_L`/`_R` suffixes (`mouthSmile_L`),
    /// case-insensitively. Nil for a name that is not one of the 52.
    public init?(normalisedName name: some StringProtocol) {
        var key = name.lowercased()
        if key.hasSuffix("_l") { key = String(key.dropLast(2)) + "left" }
        else if key.hasSuffix("_r") { key = String(key.dropLast(2)) + "right" }
        guard let shape = Self.byNormalisedName[key] else { return nil }
        self = shape
    }
}
