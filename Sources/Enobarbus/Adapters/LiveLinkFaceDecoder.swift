/// Live Link Face (Epic Games) binary UDP frames, default port 11111, protocols.md §1.5:
///
/// | Bytes | Field |
/// |---|---|
/// | 4 | version, uint32 little-endian (6) |
/// | 37 | device id, "$" + UUID |
/// | 4 + n | subject name: int32 big-endian length, UTF-8 |
/// | 16 | frame number int32, sub-frame float32, fps int32, denominator int32 (big-endian) |
/// | 1 | value count (61) |
/// | 244 | 61 float32 big-endian in Unreal's order |
///
/// Values 0…51 are blendshapes (clamped to 0…1), 52…54 head yaw, pitch, roll. The app scales the head
/// values to roughly −1…1; `headDegreesPerUnit` turns them into degrees (default: radians → degrees)
/// and the signs are flipped per axis if a rig shows them reversed. Anything malformed is a typed error.
public struct LiveLinkFaceDecoder: Sendable {
    /// The only layout version this decoder reads.
    public static let version: UInt32 = 6
    public static let valueCount = 61
    public static let deviceIDLength = 37

    public var headDegreesPerUnit: Float = 180 / .pi
    public var yawSign: Float = 1
    public var pitchSign: Float = 1
    public var rollSign: Float = 1

    public init() {}

    /// Decodes one datagram received at `time` (seconds).
    public func decode(_ bytes: [UInt8], at time: Double) throws(LiveLinkFaceDecodingError) -> LiveLinkFacePacket {
        var reader = ByteReader(bytes: bytes)
        let version = try reader.uint32LE("version")
        guard version == Self.version else { throw .unsupportedVersion(version) }
        let idBytes = try reader.take(Self.deviceIDLength, "device id")
        guard idBytes.first == UInt8(ascii: "$") else { throw .badDeviceID }
        let nameLength = try reader.int32BE("name length")
        guard nameLength >= 0, Int(nameLength) <= reader.remaining else { throw .badNameLength(nameLength) }
        guard let subject = String(validating: try reader.take(Int(nameLength), "subject name"), as: UTF8.self) else {
            throw .badName
        }
        let frameNumber = try reader.int32BE("frame number")
        let subFrame = Float(bitPattern: UInt32(bitPattern: try reader.int32BE("sub-frame")))
        let fps = try reader.int32BE("frame rate")
        let denominator = try reader.int32BE("frame rate denominator")
        let count = Int(try reader.take(1, "value count").first ?? 0)
        guard count == Self.valueCount else { throw .badValueCount(count) }
        var values: [Float] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(Float(bitPattern: UInt32(bitPattern: try reader.int32BE("value")))) }
        guard reader.remaining == 0 else { throw .trailingBytes(reader.remaining) }

        var face = FaceFrame(timestamp: time)
        for (k, shape) in ARKitBlendshape.liveLinkFaceOrder.enumerated() {
            if let shape, values[k].isFinite { face.blendshapes[shape] = values[k] }
        }
        let head = (values[52] * headDegreesPerUnit, values[53] * headDegreesPerUnit, values[54] * headDegreesPerUnit)
        if head.0.isFinite, head.1.isFinite, head.2.isFinite {
            face.head = HeadRotation(yaw: clampDegrees(yawSign * head.0), pitch: clampDegrees(pitchSign * head.1),
                                     roll: clampDegrees(rollSign * head.2))
        }
        return LiveLinkFacePacket(deviceID: String(decoding: idBytes, as: UTF8.self), subject: subject,
                                  frameNumber: frameNumber, subFrame: subFrame, frameRate: fps,
                                  frameRateDenominator: denominator, face: face, rawValues: values)
    }

    private func clampDegrees(_ d: Float) -> Float { min(max(d, -180), 180) }

    /// Big-endian / little-endian reads that throw `truncated` naming the field.
    private struct ByteReader {
        let bytes: [UInt8]
        var offset = 0
        var remaining: Int { bytes.count - offset }

        mutating func take(_ n: Int, _ field: String) throws(LiveLinkFaceDecodingError) -> ArraySlice<UInt8> {
            guard n <= remaining else { throw .truncated(field: field, offset: offset, needed: n, available: remaining) }
            defer { offset += n }
            return bytes[offset..<(offset + n)]
        }

        mutating func uint32LE(_ field: String) throws(LiveLinkFaceDecodingError) -> UInt32 {
            let b = try take(4, field)
            return b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func int32BE(_ field: String) throws(LiveLinkFaceDecodingError) -> Int32 {
            let b = try take(4, field)
            return Int32(bitPattern: b.reduce(0) { $0 << 8 | UInt32($1) })
        }
    }
}
