/// Prospero's own OSC address scheme. Every number may be sent as `i`, `f`, `h` or `d`.
///
/// | Address | Types | Meaning |
/// |---|---|---|
/// | `/prospero/face/blend` | `sf` (repeatable: `sfsf…`) | blendshape by ARKit name (any case, `_L/_R` accepted), weight 0…1 |
/// | `/prospero/face/head` | `fff` | head yaw, pitch, roll in degrees (`HeadRotation` convention) |
/// | `/prospero/face/headq` | `ffff` | head rotation as a quaternion x, y, z, w |
/// | `/prospero/face/end` | (none) | the face is gone |
/// | `/prospero/hand` | `isf` + 63 `f`, or `isf[f×63]` | slot 0…3, handedness `left`/`right`/`unknown`, confidence 0…1, then x, y, z of the 21 landmarks (MediaPipe order; x, y 0…1 top-left, y down) |
/// | `/prospero/hand/end` | `i` | hand slot ended |
/// | `/prospero/touch` | `ifff` | slot 0…3, x 0…1 from left, y 0…1 from top, pressure 0…1 |
/// | `/prospero/touch/end` | `i` | touch slot ended (finger lifted) |
///
/// Send a face's messages in one bundle so they apply as one frame. Messages with the wrong
/// argument count or types are rejected (counted by `OSCFrameAssembler`), never guessed at.
public struct NativeOSCAdapter: Sendable {
    public init() {}

    /// Handles `message` if it belongs to this scheme. Returns nil when the address is not
    /// this adapter's, `.accepted` or `.rejected(reason)` otherwise.
    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        let address = message.address
        guard address.hasPrefix("/prospero/") else { return nil }
        let a = message.arguments
        switch address {
        case "/prospero/face/blend":
            guard !a.isEmpty, a.count % 2 == 0 else { return .rejected("face/blend needs name-weight pairs") }
            var updates: [(ARKitBlendshape, Float)] = []
            for k in stride(from: 0, to: a.count, by: 2) {
                guard let name = a[k].stringValue, let shape = ARKitBlendshape(normalisedName: name) else {
                    return .rejected("face/blend: \(a[k].stringValue ?? a[k].typeTag) is not an ARKit blendshape name")
                }
                guard let v = a[k + 1].floatValue, v.isFinite else { return .rejected("face/blend: weight is not a number") }
                updates.append((shape, v))
            }
            for (shape, v) in updates { frame.setBlendshape(shape, v) }
            return .accepted
        case "/prospero/face/head":
            guard a.count == 3, let yaw = a[0].floatValue, let pitch = a[1].floatValue, let roll = a[2].floatValue
            else { return .rejected("face/head needs 3 numbers (yaw, pitch, roll in degrees)") }
            frame.setHead(HeadRotation(yaw: yaw, pitch: pitch, roll: roll))
            return .accepted
        case "/prospero/face/headq":
            guard a.count == 4, let x = a[0].floatValue, let y = a[1].floatValue, let z = a[2].floatValue,
                  let w = a[3].floatValue, let head = HeadRotation(quaternionX: x, y: y, z: z, w: w)
            else { return .rejected("face/headq needs a non-zero quaternion x, y, z, w") }
            frame.setHead(head)
            return .accepted
        case "/prospero/face/end":
            frame.endFace()
            return .accepted
        case "/prospero/hand":
            guard a.count >= 4, let slot = a[0].intValue, let side = a[1].stringValue, let confidence = a[2].floatValue
            else { return .rejected("hand needs slot, handedness, confidence, 63 coordinates") }
            var flat = Array(a[3...])
            if flat.count == 1, case .array(let items) = flat[0] { flat = items }
            guard flat.count == 63 else { return .rejected("hand needs 63 coordinates, got \(flat.count)") }
            var points: [SIMD3<Float>] = []
            points.reserveCapacity(21)
            for k in 0..<21 {
                guard let x = flat[3 * k].floatValue, let y = flat[3 * k + 1].floatValue, let z = flat[3 * k + 2].floatValue
                else { return .rejected("hand: coordinate \(3 * k) is not a number") }
                points.append(SIMD3(x, y, z))
            }
            guard (0...3).contains(slot) else { return .rejected("hand slot \(slot) is outside 0…3") }
            frame.setHand(slot: slot, landmarks: points, handedness: Handedness(parsing: side), confidence: confidence)
            return .accepted
        case "/prospero/hand/end":
            guard a.count == 1, let slot = a[0].intValue else { return .rejected("hand/end needs a slot") }
            frame.endHand(slot: slot)
            return .accepted
        case "/prospero/touch":
            guard a.count == 4, let slot = a[0].intValue, let x = a[1].floatValue, let y = a[2].floatValue,
                  let p = a[3].floatValue else { return .rejected("touch needs slot, x, y, pressure") }
            guard (0...3).contains(slot) else { return .rejected("touch slot \(slot) is outside 0…3") }
            frame.setTouch(slot: slot, x: x, y: y, pressure: p)
            return .accepted
        case "/prospero/touch/end":
            guard a.count == 1, let slot = a[0].intValue else { return .rejected("touch/end needs a slot") }
            frame.endTouch(slot: slot)
            return .accepted
        default:
            return .rejected("unknown /prospero address \(address)")
        }
    }
}
