/// Visage (iOS), protocols.md §1.6: `/visage` with 63 numbers, 0…51 blendshapes in Face Cap's order,
/// 52…61 transforms, 62 a time stamp. The transforms' layout is not documented, so only the
/// blendshapes are taken; the head stays where another message put it.
public struct VisageAdapter: Sendable {
    public init() {}

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        guard message.address == "/visage" else { return nil }
        let a = message.arguments
        guard a.count == 63 else { return .rejected("visage needs 63 numbers, got \(a.count)") }
        var weights: [Float] = []
        for k in 0..<ARKitBlendshape.count {
            guard let v = a[k].floatValue, v.isFinite else { return .rejected("visage blendshape \(k) is not a number") }
            weights.append(v)
        }
        for (k, shape) in ARKitBlendshape.faceCapOrder.enumerated() { frame.setBlendshape(shape, weights[k]) }
        return .accepted
    }
}
