/// Binary WebSocket frames (protocol v1): byte 0 is the kind, then a little-endian payload. Server → client
/// but for ``Kind/camera``.
public enum StudioBinaryFrame {
    public enum Kind: UInt8, Sendable {
        /// Float32 ×4: peakL, peakR, rmsL, rmsR, linear amplitude, ballistics applied (Oberon).
        case meters = 0x01
        /// Float32 ×n: the output's recent samples, mono (L+R)/2, oldest first.
        case scope = 0x02
        /// Float32 ×n: magnitudes in dB per bar, low to high frequency.
        case spectrum = 0x03
        /// PCM audio for browser mode: UInt32 sequence, UInt32 sample rate, UInt16 channels (2),
        /// UInt16 frames, then Int16 interleaved samples (see docs/studio-protocol.md).
        case pcm = 0x10
        /// Client → server: a page's camera frame (``StudioCameraFrame``: header, then a JPEG).
        case camera = 0x20
        /// Client → server: a page's camera frame whose hands are tracked (``StudioCameraFrame``, the same layout).
        case handCamera = 0x21
        /// The studio's own camera's preview (``StudioCameraPreview``: header, then a JPEG), to pages subscribed to `camera`.
        case cameraPreview = 0x22
    }

    /// `kind` followed by `values` as little-endian Float32.
    public static func encode(_ kind: Kind, _ values: some Collection<Float>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(1 + 4 * values.count)
        out.append(kind.rawValue)
        for v in values {
            let bits = v.bitPattern.littleEndian
            withUnsafeBytes(of: bits) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// The kind and Float32 values of a frame from ``encode(_:_:)``; nil when it is not one.
    public static func decodeFloats(_ bytes: [UInt8]) -> (Kind, [Float])? {
        guard let first = bytes.first, let kind = Kind(rawValue: first), kind != .pcm, kind != .camera, kind != .handCamera, kind != .cameraPreview, (bytes.count - 1) % 4 == 0 else { return nil }
        var values = [Float]()
        values.reserveCapacity((bytes.count - 1) / 4)
        var i = 1
        while i < bytes.count {
            let bits = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            values.append(Float(bitPattern: bits))
            i += 4
        }
        return (kind, values)
    }
}
