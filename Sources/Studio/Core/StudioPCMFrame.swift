/// The browser-audio frame (binary kind `0x10`, docs/studio-protocol.md): the one place that writes and
/// reads it. Little-endian: byte 0 = 0x10, UInt32 sequence number (wraps), UInt32 sample rate (Hz),
/// UInt16 channels (2), UInt16 frames *n*, then Int16 × 2*n* samples interleaved L R L R …
/// (a sample is `round(clamp(x, −1, 1) · 32767)`, so ±1 maps to ±32767 and back exactly).
///
/// ``encode(sequence:sampleRate:left:right:frameCount:into:)`` writes into the caller's buffer with no
/// allocation (the render thread calls it once per block); ``decode(_:)`` checks every field and throws
/// a ``DecodeError`` naming what was wrong.
public enum StudioPCMFrame {
    /// Kind byte + sequence + rate + channels + frames.
    public static let headerBytes = 13
    public static let channels = 2
    /// Frames per frame message: at least 1, at most 4096 (85 ms at 48 kHz; the server sends 256).
    public static let frameLimit = 1...4096
    /// Sample rates a frame may carry (Hz).
    public static let sampleRateLimit: ClosedRange<UInt32> = 8_000...192_000
    /// Full scale of an Int16 sample.
    public static let fullScale: Float = 32767

    /// Bytes of a frame message carrying `frameCount` stereo frames.
    public static func byteCount(frames frameCount: Int) -> Int { headerBytes + 2 * channels * frameCount }

    /// What ``decode(_:)`` found.
    public struct Decoded: Equatable, Sendable {
        public var sequence: UInt32
        public var sampleRate: UInt32
        /// Linear amplitude, −1…1 (quantised to 1/32767).
        public var left: [Float]
        public var right: [Float]
        public var frameCount: Int { left.count }
    }

    public enum DecodeError: Error, Equatable, Sendable {
        /// Fewer bytes than a header (the count).
        case truncatedHeader(Int)
        /// Byte 0 is not 0x10 (the kind found).
        case notPCM(UInt8)
        /// A channel count other than 2.
        case channels(Int)
        /// A frame count outside ``frameLimit``.
        case frames(Int)
        /// A sample rate outside ``sampleRateLimit``.
        case sampleRate(UInt32)
        /// The payload length does not match the frame count (expected, found bytes).
        case length(expected: Int, found: Int)
    }

    /// One sample as its Int16 code: clamped to ±1 (NaN → 0), rounded to nearest.
    @inline(__always)
    public static func quantise(_ x: Float) -> Int16 {
        let clamped = x.isNaN ? 0 : min(1, max(-1, x))
        return Int16((clamped * fullScale).rounded())
    }

    /// Writes one frame message into `out` and returns its length in bytes; 0 (nothing written) when
    /// `frameCount` is outside ``frameLimit`` or `out` is too small. No allocation, no locks: render-thread safe.
    public static func encode(
        sequence: UInt32, sampleRate: UInt32, left: UnsafePointer<Float>, right: UnsafePointer<Float>,
        frameCount: Int, into out: UnsafeMutableRawBufferPointer
    ) -> Int {
        let length = byteCount(frames: frameCount)
        guard frameLimit.contains(frameCount), out.count >= length, let base = out.baseAddress else { return 0 }
        base.storeBytes(of: StudioBinaryFrame.Kind.pcm.rawValue, as: UInt8.self)
        base.storeBytes(of: sequence.littleEndian, toByteOffset: 1, as: UInt32.self)
        base.storeBytes(of: sampleRate.littleEndian, toByteOffset: 5, as: UInt32.self)
        base.storeBytes(of: UInt16(channels).littleEndian, toByteOffset: 9, as: UInt16.self)
        base.storeBytes(of: UInt16(frameCount).littleEndian, toByteOffset: 11, as: UInt16.self)
        var offset = headerBytes
        for i in 0..<frameCount {
            base.storeBytes(of: quantise(left[i]).littleEndian, toByteOffset: offset, as: Int16.self)
            base.storeBytes(of: quantise(right[i]).littleEndian, toByteOffset: offset + 2, as: Int16.self)
            offset += 4
        }
        return length
    }

    /// Reads a frame message; throws what is wrong with it.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> Decoded {
        let b = Array(bytes)
        guard b.count >= headerBytes else { throw .truncatedHeader(b.count) }
        guard b[0] == StudioBinaryFrame.Kind.pcm.rawValue else { throw .notPCM(b[0]) }
        func u16(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
        func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
        let sequence = u32(1), rate = u32(5), channelCount = Int(u16(9)), frameCount = Int(u16(11))
        guard channelCount == channels else { throw .channels(channelCount) }
        guard frameLimit.contains(frameCount) else { throw .frames(frameCount) }
        guard sampleRateLimit.contains(rate) else { throw .sampleRate(rate) }
        let expected = byteCount(frames: frameCount)
        guard b.count == expected else { throw .length(expected: expected, found: b.count) }
        var left = [Float](repeating: 0, count: frameCount), right = left
        for i in 0..<frameCount {
            let o = headerBytes + 4 * i
            left[i] = Float(Int16(bitPattern: u16(o))) / fullScale
            right[i] = Float(Int16(bitPattern: u16(o + 2))) / fullScale
        }
        return Decoded(sequence: sequence, sampleRate: rate, left: left, right: right)
    }
}
