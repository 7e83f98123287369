/// A preview frame of the studio's own camera (`prospero studio --camera`), server → the pages subscribed to
/// `camera` (binary WebSocket message, little-endian like every binary frame):
///
/// | bytes | field |
/// | --- | --- |
/// | 0 | `0x22` |
/// | 1–4 | UInt32 sequence number |
/// | 5–6 | UInt16 width, 1…``StudioCameraFrame/maximumWidth`` px |
/// | 7–8 | UInt16 height, 1…``StudioCameraFrame/maximumHeight`` px |
/// | 9… | the JPEG image (starts with `FF D8`) |
public struct StudioCameraPreview: Sendable, Equatable {
    public static let kind: UInt8 = 0x22
    public static let headerBytes = 9

    public var sequence: UInt32
    public var width: Int
    public var height: Int
    public var jpeg: ArraySlice<UInt8>

    public init(sequence: UInt32, width: Int, height: Int, jpeg: ArraySlice<UInt8>) {
        self.sequence = sequence
        self.width = width
        self.height = height
        self.jpeg = jpeg
    }

    public func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.kind]
        out.reserveCapacity(Self.headerBytes + jpeg.count)
        withUnsafeBytes(of: sequence.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(clamping: width).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt16(clamping: height).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: jpeg)
        return out
    }
}
