extension ARKitBlendshape {
    /// Face Cap's `/W` index order (the Visage order), as names. Index 24 is `jawOpen`, 51 `tongueOut`.
    ///
    /// Kept as names and resolved through `init?(normalisedName:)`, so a wrong entry is caught by a
    /// test against ARKit's list rather than silently shifting every shape after it.
    public static let faceCapOrderNames: [String] = [
        "browInnerUp",
        "browDownLeft",
        "browDownRight",
        "browOuterUpLeft",
        "browOuterUpRight",
        "eyeLookUpLeft",
        "eyeLookUpRight",
        "eyeLookDownLeft",
        "eyeLookDownRight",
        "eyeLookInLeft",
        "eyeLookInRight",
        "eyeLookOutLeft",
        "eyeLookOutRight",
        "eyeBlinkLeft",
        "eyeBlinkRight",
        "eyeSquintLeft",
        "eyeSquintRight",
        "eyeWideLeft",
        "eyeWideRight",
        "cheekPuff",
        "cheekSquintLeft",
        "cheekSquintRight",
        "noseSneerLeft",
        "noseSneerRight",
        "jawOpen",
        "jawForward",
        "jawLeft",
        "jawRight",
        "mouthFunnel",
        "mouthPucker",
        "mouthLeft",
        "mouthRight",
        "mouthRollUpper",
        "mouthRollLower",
        "mouthShrugUpper",
        "mouthShrugLower",
        "mouthClose",
        "mouthSmileLeft",
        "mouthSmileRight",
        "mouthFrownLeft",
        "mouthFrownRight",
        "mouthDimpleLeft",
        "mouthDimpleRight",
        "mouthUpperUpLeft",
        "mouthUpperUpRight",
        "mouthLowerDownLeft",
        "mouthLowerDownRight",
        "mouthPressLeft",
        "mouthPressRight",
        "mouthStretchLeft",
        "mouthStretchRight",
        "tongueOut",
    ]

    /// Face Cap index → blendshape, resolved by name.
    public static let faceCapOrder: [ARKitBlendshape] = faceCapOrderNames.compactMap { ARKitBlendshape(normalisedName: $0) }

    /// The blendshape Face Cap sends as `/W index value`, or nil for an index outside 0…51.
    public init?(faceCapIndex index: Int) {
        guard index >= 0, index < Self.faceCapOrder.count else { return nil }
        self = Self.faceCapOrder[index]
    }
}
