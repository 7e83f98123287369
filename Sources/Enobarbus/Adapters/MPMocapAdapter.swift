/// mpmocap / Phiz (browser, MediaPipe Face Landmarker), protocols.md §1.6:
/// `/mpmocap/blendshapes` with 52 numbers 0…1 in its own order (`ARKitBlendshape.mpmocapOrderNames`),
/// `/mpmocap/headRotation` with a quaternion x, y, z, w (right-handed, Y up; taken in `HeadRotation`'s
/// axes). Eye rotations and `/mpmocap/version` are recognised and ignored.
public struct MPMocapAdapter: Sendable {
    public init() {}

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        guard message.address.hasPrefix("/mpmocap/") else { return nil }
        let a = message.arguments
        switch message.address {
        case "/mpmocap/blendshapes":
            guard a.count == ARKitBlendshape.count else { return .rejected("mpmocap blendshapes needs 52 numbers, got \(a.count)") }
            var weights: [Float] = []
            for (k, arg) in a.enumerated() {
                guard let v = arg.floatValue, v.isFinite else { return .rejected("mpmocap blendshape \(k) is not a number") }
                weights.append(v)
            }
            for (k, shape) in ARKitBlendshape.mpmocapOrder.enumerated() { if let shape { frame.setBlendshape(shape, weights[k]) } }
            return .accepted
        case "/mpmocap/headRotation":
            guard a.count == 4, let x = a[0].floatValue, let y = a[1].floatValue, let z = a[2].floatValue,
                  let w = a[3].floatValue, let head = HeadRotation(quaternionX: x, y: y, z: z, w: w)
            else { return .rejected("mpmocap headRotation needs a non-zero quaternion x, y, z, w") }
            frame.setHead(head)
            return .accepted
        case "/mpmocap/leftEyeRotation", "/mpmocap/rightEyeRotation", "/mpmocap/version":
            return .accepted
        default:
            return nil
        }
    }
}
