import InstrumentSettings

/// A camera frame a page sends (binary WebSocket message, kind `0x20` for the face model or `0x21` for the
/// hands model, little-endian like every binary frame):
///
/// | bytes | field |
/// | --- | --- |
/// | 0 | `0x20` (track a face) or `0x21` (track hands) |
/// | 1–4 | UInt32 sequence number (the page counts its frames) |
/// | 5–12 | Float64 when the page sent it, in the server's monotonic ms as the page estimates it from `pong` (0: unknown) |
/// | 13–14 | UInt16 width, 1…``maximumWidth`` px |
/// | 15–16 | UInt16 height, 1…``maximumHeight`` px |
/// | 17… | the JPEG image (starts with `FF D8`), at most ``maximumJPEGBytes``; none: the page's camera stopped |
public struct StudioCameraFrame: Sendable, Equatable {
    public static let kind: UInt8 = 0x20
    /// The kind of a frame whose hands are tracked.
    public static let handsKind: UInt8 = 0x21
    public static let headerBytes = 17
    public static let maximumWidth = 320
    public static let maximumHeight = 240
    /// A 320×240 JPEG at the page's quality is 8–25 KiB; the cap leaves room below the socket's 64 KiB message limit.
    public static let maximumJPEGBytes = 60 * 1024

    /// What the bridge tracks in it (the kind byte).
    public var model: StudioCameraModel
    public var sequence: UInt32
    /// Server monotonic milliseconds at sending (the page's estimate), nil when the page did not know the offset.
    public var sentAt: Double?
    public var width: Int
    public var height: Int
    /// Empty: the page's camera stopped (its face ends now).
    public var jpeg: ArraySlice<UInt8>

    public init(model: StudioCameraModel = .face, sequence: UInt32, sentAt: Double?, width: Int, height: Int, jpeg: ArraySlice<UInt8>) {
        self.model = model
        self.sequence = sequence
        self.sentAt = sentAt
        self.width = width
        self.height = height
        self.jpeg = jpeg
    }

    /// True for the frame that says the camera stopped.
    public var isEnd: Bool { jpeg.isEmpty }

    /// The frame in `bytes`, or an error naming what is wrong (`bad_message`, `too_large`, ref `camera`).
    public static func parse(_ bytes: [UInt8]) throws(StudioError) -> StudioCameraFrame {
        guard let first = bytes.first else { throw .badMessage("an empty binary message", ref: "camera") }
        guard let model = StudioCameraModel(frameKind: first) else {
            throw .badMessage("binary message of kind 0x\(String(first, radix: 16)): clients send only camera frames (0x20 face, 0x21 hands)", ref: "camera")
        }
        guard bytes.count >= headerBytes else {
            throw .badMessage("a camera frame needs a \(headerBytes)-byte header, got \(bytes.count) bytes", ref: "camera")
        }
        func u32(_ i: Int) -> UInt32 { UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        let sent = Double(bitPattern: UInt64(u32(5)) | UInt64(u32(9)) << 32)
        let width = u16(13), height = u16(15)
        let jpegCount = bytes.count - headerBytes
        guard jpegCount <= maximumJPEGBytes else {
            throw StudioError(code: "too_large", message: "camera frame of \(jpegCount) bytes is over the limit of \(maximumJPEGBytes)", ref: "camera")
        }
        if jpegCount > 0 {
            guard (1...maximumWidth).contains(width), (1...maximumHeight).contains(height) else {
                throw .badMessage("camera frame of \(width)×\(height): at most \(maximumWidth)×\(maximumHeight)", ref: "camera")
            }
            guard jpegCount >= 4, bytes[headerBytes] == 0xFF, bytes[headerBytes + 1] == 0xD8 else {
                throw .badMessage("a camera frame's image must be a JPEG (FF D8 …)", ref: "camera")
            }
        }
        guard sent.isFinite, sent >= 0, sent < 1e15 else { throw .badMessage("a camera frame's time must be 0…10¹⁵ ms", ref: "camera") }
        return StudioCameraFrame(model: model, sequence: u32(1), sentAt: sent > 0 ? sent : nil, width: width, height: height,
                                 jpeg: bytes[headerBytes...])
    }

    /// The frame's bytes (what a page sends; tests and the fuzz target's round trip).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [model.frameKind]
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        put(sequence)
        put((sentAt ?? 0).bitPattern)
        put(UInt16(clamping: width))
        put(UInt16(clamping: height))
        out.append(contentsOf: jpeg)
        return out
    }
}
