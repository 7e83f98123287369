import Enobarbus
import Horatio

/// The OSC traffic of one 60 fps tracking frame from the senders Prospero understands, encoded as
/// the packets they put on the wire.
///
/// - Face Cap: 52 `/W if` blendshape messages (one per packet, as Face Cap sends them), `/HR fff`
///   and `/HRQ ffff`.
/// - A 52-float blendshape message: Prospero's own `/prospero/face/blend` with all 52 ARKit
///   weights (`sf` × 52) in one message.
/// - mediapipe-osc hands: `/mediapipe/hands` with the hand count and 84 floats (21 landmarks × x y z
///   visibility) for one hand.
/// - A TUIO 1.1 bundle of two cursors: `source`, `alive`, two `set`, `fseq` (5 messages).
struct OSCMessageMix {
    struct Kind {
        var name: String
        var packets: [[UInt8]]
        /// Messages the packets hold (a bundle counts each message inside it).
        var messageCount: Int
        var byteCount: Int { packets.reduce(0) { $0 + $1.count } }
    }

    let kinds: [Kind]

    init() throws {
        var random = SplitMix64(seed: 9)
        func unit() -> Float { Float(random.next() >> 40) / Float(1 << 24) }

        var faceCap: [[UInt8]] = []
        for index in 0..<52 {
            faceCap.append(try OSCEncoder.encode(OSCMessage("/W", [.int32(Int32(index)), .float32(unit())])))
        }
        faceCap.append(try OSCEncoder.encode(OSCMessage("/HR", [.float32(-4.5), .float32(12.25), .float32(1.5)])))
        faceCap.append(try OSCEncoder.encode(OSCMessage("/HRQ", [.float32(0.01), .float32(0.1), .float32(0.02), .float32(0.99)])))

        var blend: [OSCArgument] = []
        for name in OSCMessageMix.arkitNames {
            blend.append(.string(name))
            blend.append(.float32(unit()))
        }
        let blendPacket = try OSCEncoder.encode(OSCMessage("/prospero/face/blend", blend))

        var hand: [OSCArgument] = [.int32(1)]
        for _ in 0..<84 { hand.append(.float32(unit())) }
        let handPacket = try OSCEncoder.encode(OSCMessage("/mediapipe/hands", hand))

        let tuio = OSCPacket.bundle(OSCBundle(timeTag: .immediately, [
            .message(OSCMessage("/tuio/2Dcur", [.string("source"), .string("TUIOPad@192.168.1.20")])),
            .message(OSCMessage("/tuio/2Dcur", [.string("alive"), .int32(17), .int32(18)])),
            .message(OSCMessage("/tuio/2Dcur", [.string("set"), .int32(17), .float32(0.25), .float32(0.5),
                                                .float32(0.01), .float32(-0.02), .float32(0.3)])),
            .message(OSCMessage("/tuio/2Dcur", [.string("set"), .int32(18), .float32(0.75), .float32(0.4),
                                                .float32(0), .float32(0), .float32(0)])),
            .message(OSCMessage("/tuio/2Dcur", [.string("fseq"), .int32(4711)])),
        ]))
        let tuioPacket = try OSCEncoder.encode(tuio)

        kinds = [
            Kind(name: "Face Cap `/W if` ×52 + `/HR fff` + `/HRQ ffff`", packets: faceCap, messageCount: 54),
            Kind(name: "52-float blendshape message (`/prospero/face/blend` sf×52)", packets: [blendPacket], messageCount: 1),
            Kind(name: "mediapipe hands (`/mediapipe/hands` i + 84 f)", packets: [handPacket], messageCount: 1),
            Kind(name: "TUIO bundle (source, alive, 2× set, fseq)", packets: [tuioPacket], messageCount: 5),
        ]
    }

    /// One tracking frame of every sender, in the order they would interleave.
    var frame: Kind {
        Kind(name: "mix: one frame of all four senders",
             packets: kinds.flatMap(\.packets), messageCount: kinds.reduce(0) { $0 + $1.messageCount })
    }

    static let arkitNames = [
        "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight", "cheekPuff",
        "cheekSquintLeft", "cheekSquintRight", "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft",
        "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft", "eyeLookOutRight",
        "eyeLookUpLeft", "eyeLookUpRight", "eyeSquintLeft", "eyeSquintRight", "eyeWideLeft", "eyeWideRight",
        "jawForward", "jawLeft", "jawOpen", "jawRight", "mouthClose", "mouthDimpleLeft", "mouthDimpleRight",
        "mouthFrownLeft", "mouthFrownRight", "mouthFunnel", "mouthLeft", "mouthLowerDownLeft",
        "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight", "mouthPucker", "mouthRight",
        "mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper", "mouthSmileLeft",
        "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight", "mouthUpperUpLeft", "mouthUpperUpRight",
        "noseSneerLeft", "noseSneerRight", "tongueOut",
    ]
}
