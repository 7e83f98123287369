/// Datagrams of every face sender Prospero reads, built byte by byte from the documented wire formats
/// (shared/docs/protocols.md §1), never through Enobarbus' own encoder: what the tests send to a live
/// host or `prospero osc monitor`.
public enum SenderTestPackets {
    public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    public static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    public static func float(_ f: Float) -> [UInt8] { be32(f.bitPattern) }

    /// An OSC-string: ASCII, then 1…4 NULs to a multiple of 4 bytes.
    public static func oscString(_ s: String) -> [UInt8] {
        var b = Array(s.utf8) + [0]
        while b.count % 4 != 0 { b.append(0) }
        return b
    }

    /// An OSC message with an int32 ("i") or float32 ("f") argument list.
    public static func osc(_ address: String, ints: [Int32] = [], floats: [Float] = []) -> [UInt8] {
        oscString(address) + oscString("," + String(repeating: "i", count: ints.count) + String(repeating: "f", count: floats.count))
            + ints.flatMap { be32(UInt32(bitPattern: $0)) } + floats.flatMap(float)
    }

    /// An OSC bundle, timetag 1 ("immediately"), of already encoded messages.
    public static func bundle(_ messages: [[UInt8]]) -> [UInt8] {
        oscString("#bundle") + be32(0) + be32(1) + messages.flatMap { be32(UInt32($0.count)) + $0 }
    }

    /// iFacialMocap v1 text (`name-value|…|=head#rx,ry,rz,px,py,pz|…`), weights 0…100.
    public static func iFacialMocap(jawOpen: Int, smileLeft: Int, headRX: Int, headRY: Int, headRZ: Int) -> [UInt8] {
        Array("trackingStatus-1|mouthSmile_L-\(smileLeft)|jawOpen-\(jawOpen)|eyeBlink_R-0|=head#\(headRX),\(headRY),\(headRZ),0.01,0.02,0.3|rightEye#1,2,3|leftEye#1,2,3|".utf8)
    }

    /// Live Link Face: uint32 LE version 6, "$" + 36-character UUID, BE name length + name, BE frame,
    /// sub-frame, fps, denominator, uint8 count 61, 61 BE floats in Unreal's order (17 jawOpen, 43 browInnerUp).
    public static func liveLinkFace(jawOpen: Float, browInnerUp: Float) -> [UInt8] {
        var values = [Float](repeating: 0, count: 61)
        values[17] = jawOpen
        values[43] = browInnerUp
        var b = le32(6) + Array("$0123ABCD-0000-1111-2222-333344445555".utf8)
        b += be32(6) + Array("iPhone".utf8) + be32(100) + float(0) + be32(60) + be32(1) + [61]
        return b + values.flatMap(float)
    }

    /// A FaceOSC frame bundle with pose scale `scale` and every gesture a raw distance (normalised × scale).
    public static func faceOSC(scale: Float, mouthHeight: Float) -> [UInt8] {
        bundle([
            osc("/pose/position", floats: [320, 240]), osc("/pose/scale", floats: [scale]), osc("/pose/orientation", floats: [0, 0, 0]),
            osc("/gesture/mouth/width", floats: [12 * scale]), osc("/gesture/mouth/height", floats: [mouthHeight * scale]),
            osc("/gesture/eyebrow/left", floats: [7 * scale]), osc("/gesture/eyebrow/right", floats: [7 * scale]),
            osc("/gesture/eye/left", floats: [3 * scale]), osc("/gesture/eye/right", floats: [3 * scale]),
            osc("/gesture/jaw", floats: [20 * scale]), osc("/gesture/nostrils", floats: [5 * scale]),
        ])
    }

    /// mpmocap/Phiz `/mpmocap/blendshapes`: 52 floats in its order (47 = jawOpen).
    public static func mpmocap(jawOpen: Float) -> [UInt8] {
        var v = [Float](repeating: 0, count: 52)
        v[47] = jawOpen
        return osc("/mpmocap/blendshapes", floats: v)
    }

    /// Visage `/visage`: 63 floats, 0…51 in Face Cap order (24 jawOpen, 37 mouthSmileLeft).
    public static func visage(jawOpen: Float, smileLeft: Float) -> [UInt8] {
        var v = [Float](repeating: 0, count: 63)
        v[24] = jawOpen
        v[37] = smileLeft
        return osc("/visage", floats: v)
    }

    /// Face Cap `/W index weight` (Face Cap order: 24 jawOpen).
    public static func faceCap(index: Int32, weight: Float) -> [UInt8] { osc("/W", ints: [index], floats: [weight]) }

    /// Wekinator `/wek/outputs` with M floats.
    public static func wekinatorOutputs(_ values: [Float]) -> [UInt8] { osc("/wek/outputs", floats: values) }

    /// Parses a `/wek/inputs` datagram built by the code under test: its float arguments, nil when it is not one.
    public static func wekinatorInputs(_ bytes: [UInt8]) -> [Float]? {
        let address = oscString("/wek/inputs")
        guard bytes.starts(with: address) else { return nil }
        var i = address.count
        var tags: [UInt8] = []
        while i < bytes.count, bytes[i] != 0 { tags.append(bytes[i]); i += 1 }
        i = (i / 4 + 1) * 4
        guard tags.first == UInt8(ascii: ","), tags.dropFirst().allSatisfy({ $0 == UInt8(ascii: "f") }), bytes.count == i + 4 * (tags.count - 1) else { return nil }
        return (0..<(tags.count - 1)).map { k in
            let o = i + 4 * k
            return Float(bitPattern: UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3]))
        }
    }
}
