/// Face Cap (Bannaflak, iOS) live mode.
///
/// - `/W if`: blendshape by Face Cap index (its own order, mapped by name through
///   `ARKitBlendshape.faceCapOrderNames`) and weight 0…1 (an int weight is accepted too).
/// - `/HR fff`: head rotation in degrees, taken as pitch (x), yaw (y), roll (z).
/// - `/HRQ ffff`: head rotation quaternion x, y, z, w.
/// - `/HT`, `/ELR`, `/ERR` (head position, eye rotations) are recognised and ignored.
public struct FaceCapAdapter: Sendable {
    public init() {}

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        let a = message.arguments
        switch message.address {
        case "/W":
            guard a.count == 2, let index = a[0].intValue, let weight = a[1].floatValue, weight.isFinite
            else { return .rejected("Face Cap /W needs index and weight") }
            guard let shape = ARKitBlendshape(faceCapIndex: index) else {
                return .rejected("Face Cap /W index \(index) is outside 0…51")
            }
            frame.setBlendshape(shape, weight)
            return .accepted
        case "/HR":
            guard a.count == 3, let x = a[0].floatValue, let y = a[1].floatValue, let z = a[2].floatValue
            else { return .rejected("Face Cap /HR needs 3 angles") }
            frame.setHead(HeadRotation(yaw: y, pitch: x, roll: z))
            return .accepted
        case "/HRQ":
            guard a.count == 4, let x = a[0].floatValue, let y = a[1].floatValue, let z = a[2].floatValue,
                  let w = a[3].floatValue, let head = HeadRotation(quaternionX: x, y: y, z: z, w: w)
            else { return .rejected("Face Cap /HRQ needs a non-zero quaternion") }
            frame.setHead(head)
            return .accepted
        case "/HT", "/ELR", "/ERR":
            return .accepted
        default:
            return nil
        }
    }
}
