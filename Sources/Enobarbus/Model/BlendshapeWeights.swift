/// The 52 blendshape weights of one face frame, indexed by `ARKitBlendshape`.
///
/// Weights are 0…1 (0 = neutral, 1 = fully expressed). Shapes a sender never sent stay 0.
public struct BlendshapeWeights: Sendable, Hashable {
    @usableFromInline
    var storage: [Float]

    /// All 52 weights at 0.
    public init() { storage = Array(repeating: 0, count: ARKitBlendshape.count) }

    /// Weights from a dictionary; missing shapes are 0.
    public init(_ values: [ARKitBlendshape: Float]) {
        self.init()
        for (shape, value) in values { self[shape] = value }
    }

    /// The weight of `shape`, 0…1. Setting clamps to 0…1 and maps NaN to 0.
    @inlinable
    public subscript(shape: ARKitBlendshape) -> Float {
        get { storage[shape.rawValue] }
        set { storage[shape.rawValue] = newValue.isNaN ? 0 : min(max(newValue, 0), 1) }
    }

    /// The weights in ARKit (alphabetical) order.
    public var values: [Float] { storage }
}
