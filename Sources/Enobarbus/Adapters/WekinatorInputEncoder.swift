/// Feature vectors for Wekinator's `/wek/inputs` (floats only, a fixed count per project; Wekinator
/// listens on UDP 6448), protocols.md §1.7.
///
/// The default layout is 52 blendshapes (ARKit order) followed by 63 hand coordinates (x, y, z of the
/// 21 landmarks of one hand slot): 115 inputs. A missing face or hand sends zeros, so the count never
/// changes (Wekinator drops vectors of the wrong length).
public struct WekinatorInputEncoder: Sendable {
    public var includeFace: Bool
    /// The hand slot whose landmarks are appended, or nil for none.
    public var handSlot: Int?

    public init(includeFace: Bool = true, handSlot: Int? = 0) {
        self.includeFace = includeFace
        self.handSlot = handSlot
    }

    /// Inputs per vector (what to type in Wekinator's "# inputs").
    public var inputCount: Int { (includeFace ? ARKitBlendshape.count : 0) + (handSlot == nil ? 0 : 63) }

    /// The feature vector for the latest face and hand (either may be nil); non-finite values send 0.
    public func features(face: FaceFrame?, hand: HandFrame?) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(inputCount)
        if includeFace { out += face?.blendshapes.values ?? Array(repeating: 0, count: ARKitBlendshape.count) }
        if handSlot != nil {
            if let hand { for p in hand.landmarks { out += [p.x, p.y, p.z] } } else { out += Array(repeating: 0, count: 63) }
        }
        return out.map { $0.isFinite ? $0 : 0 }
    }

    /// The `/wek/inputs` message for `features`.
    public func message(face: FaceFrame?, hand: HandFrame?) -> OSCMessage {
        OSCMessage("/wek/inputs", features(face: face, hand: hand).map { .float32($0) })
    }

    /// The datagram bytes of `message(face:hand:)`.
    public func datagram(face: FaceFrame?, hand: HandFrame?) -> [UInt8] {
        // Floats and a fixed ASCII address always encode.
        (try? OSCEncoder.encode(message(face: face, hand: hand))) ?? []
    }
}
