extension ARKitBlendshape {
    /// Live Link Face's 61 values, in Unreal's `ELiveLinkAppleARKitFaceBlendshape` order: 52 blendshapes
    /// (indices 0…51), then head yaw, pitch, roll (52…54), left eye (55…57), right eye (58…60).
    /// Index 17 is `jawOpen`, 43 `browInnerUp`, 51 `tongueOut`.
    ///
    /// Kept as names resolved through `init?(normalisedName:)`, like `faceCapOrderNames`, so a wrong
    /// entry is caught by a test against ARKit's list.
    public static let liveLinkFaceOrderNames: [String] = [
        "eyeBlinkLeft", "eyeLookDownLeft", "eyeLookInLeft", "eyeLookOutLeft", "eyeLookUpLeft", "eyeSquintLeft", "eyeWideLeft",
        "eyeBlinkRight", "eyeLookDownRight", "eyeLookInRight", "eyeLookOutRight", "eyeLookUpRight", "eyeSquintRight", "eyeWideRight",
        "jawForward", "jawLeft", "jawRight", "jawOpen",
        "mouthClose", "mouthFunnel", "mouthPucker", "mouthLeft", "mouthRight",
        "mouthSmileLeft", "mouthSmileRight", "mouthFrownLeft", "mouthFrownRight",
        "mouthDimpleLeft", "mouthDimpleRight", "mouthStretchLeft", "mouthStretchRight",
        "mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper",
        "mouthPressLeft", "mouthPressRight", "mouthLowerDownLeft", "mouthLowerDownRight",
        "mouthUpperUpLeft", "mouthUpperUpRight",
        "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight",
        "cheekPuff", "cheekSquintLeft", "cheekSquintRight", "noseSneerLeft", "noseSneerRight", "tongueOut",
    ]

    /// mpmocap / Phiz `/mpmocap/blendshapes` order (from its data-format page): Face Cap's first 24
    /// (brows, eyes, cheeks, nose), then the mouth shapes, then `jawOpen`, `jawForward`, `jawLeft`,
    /// `jawRight` (47…50) and `tongueOut` (51).
    public static let mpmocapOrderNames: [String] = [
        "browInnerUp", "browDownLeft", "browDownRight", "browOuterUpLeft", "browOuterUpRight",
        "eyeLookUpLeft", "eyeLookUpRight", "eyeLookDownLeft", "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight",
        "eyeLookOutLeft", "eyeLookOutRight", "eyeBlinkLeft", "eyeBlinkRight", "eyeSquintLeft", "eyeSquintRight",
        "eyeWideLeft", "eyeWideRight", "cheekPuff", "cheekSquintLeft", "cheekSquintRight", "noseSneerLeft", "noseSneerRight",
        "mouthFunnel", "mouthPucker", "mouthRollUpper", "mouthRollLower", "mouthShrugUpper", "mouthShrugLower", "mouthClose",
        "mouthSmileLeft", "mouthSmileRight", "mouthFrownLeft", "mouthFrownRight", "mouthDimpleLeft", "mouthDimpleRight",
        "mouthUpperUpLeft", "mouthUpperUpRight", "mouthLowerDownLeft", "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight",
        "mouthStretchLeft", "mouthStretchRight", "mouthLeft", "mouthRight",
        "jawOpen", "jawForward", "jawLeft", "jawRight", "tongueOut",
    ]

    /// A sender's index order resolved to blendshapes once (nil entries would be a table error, caught by tests).
    static func resolved(_ names: [String]) -> [ARKitBlendshape?] { names.map { ARKitBlendshape(normalisedName: $0) } }
    static let liveLinkFaceOrder = resolved(liveLinkFaceOrderNames)
    static let mpmocapOrder = resolved(mpmocapOrderNames)
}
