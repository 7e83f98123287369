/// Reads a RIFF/WAVE stream block by block, so a file of any length is analysed in fixed memory.
///
/// The bytes come from `read(count)`, a closure returning up to `count` bytes (fewer only at the end;
/// the caller owns the file, so this type stays portable). Chunks before 'data' other than 'fmt ' are
/// skipped in pieces; a 'data' size larger than the stream (or 0xFFFFFFFF from a recorder that never
/// patched it) reads to the end. Formats: PCM 8 (unsigned), 16, 24, 32 bit; IEEE float 32 and 64 bit;
/// WAVE_FORMAT_EXTENSIBLE with either sub-format. Samples come out as Float, full scale ±1.
public struct WAVStreamReader {
    /// Sample rate in Hz.
    public let sampleRate: Int
    /// Interleaved channels in the file (1…64).
    public let channelCount: Int
    /// Bits per sample.
    public let bitsPerSample: Int
    /// Whether samples are IEEE floats.
    public let isFloat: Bool
    /// Frames the 'data' chunk declares (may exceed what the stream holds).
    public let declaredFrames: Int
    /// Frames delivered so far.
    public private(set) var framesRead = 0

    private let read: (Int) throws -> [UInt8]
    private var remainingBytes: Int
    private let bytesPerFrame: Int
    private var leftover: [UInt8] = []

    /// Reads the header up to the start of the samples.
    /// - Throws: `WAVStreamReadError` naming what is wrong (or `readFailed` wrapping the closure's error).
    public init(read: @escaping (Int) throws -> [UInt8]) throws(WAVStreamReadError) {
        self.read = read
        func take(_ count: Int, _ what: String) throws(WAVStreamReadError) -> [UInt8] {
            let bytes: [UInt8]
            do { bytes = try read(count) } catch { throw .readFailed("\(error)") }
            guard bytes.count == count else { throw .truncatedHeader(what) }
            return bytes
        }
        func le16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
        func le32(_ b: [UInt8], _ at: Int) -> Int { le16(b, at) | le16(b, at + 2) << 16 }
        let riff = try take(12, "the RIFF header")
        let form = String(decoding: riff[0..<4], as: UTF8.self)
        guard form == "RIFF" || form == "RF64" else { throw .notRIFF }
        guard String(decoding: riff[8..<12], as: UTF8.self) == "WAVE" else { throw .notWAVE }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var skipped = 0
        while true {
            let header: [UInt8]
            do { header = try read(8) } catch { throw .readFailed("\(error)") }
            guard header.count == 8 else { throw .missingChunk(format == nil ? "fmt " : "data") }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let size = le32(header, 4)
            if id == "fmt " {
                guard size >= 16, size <= 1024 else { throw .invalidFormat("size \(size) (16…1024 expected)") }
                let body = try take(size + (size & 1), "the 'fmt ' chunk")
                var tag = le16(body, 0)
                let bits = le16(body, 14)
                if tag == 0xFFFE {
                    guard size >= 26 else { throw .invalidFormat("extensible format without its sub-format") }
                    tag = le16(body, 24)
                }
                format = (tag, le16(body, 2), le32(body, 4), bits)
            } else if id == "data" {
                guard let format else { throw .missingChunk("fmt ") }
                let (tag, channels, rate, bits) = format
                guard channels >= 1, channels <= 64 else { throw .invalidFormat("\(channels) channels (1…64 expected)") }
                guard rate >= 1, rate <= 1_536_000 else { throw .invalidFormat("sample rate \(rate) Hz") }
                switch (tag, bits) {
                case (1, 8), (1, 16), (1, 24), (1, 32), (3, 32), (3, 64): break
                default: throw .unsupportedFormat(tag: UInt16(truncatingIfNeeded: tag), bitsPerSample: UInt16(truncatingIfNeeded: bits))
                }
                sampleRate = rate
                channelCount = channels
                bitsPerSample = bits
                isFloat = tag == 3
                bytesPerFrame = channels * bits / 8
                // RF64 and unpatched recorders write 0xFFFFFFFF: read to the end of the stream.
                remainingBytes = size == 0xFFFF_FFFF || form == "RF64" ? Int.max : size
                declaredFrames = remainingBytes == Int.max ? 0 : size / bytesPerFrame
                return
            } else {
                // Skip the chunk (and its pad byte) in pieces.
                var left = size + (size & 1)
                while left > 0 {
                    let piece: [UInt8]
                    do { piece = try read(min(left, 65_536)) } catch { throw .readFailed("\(error)") }
                    if piece.isEmpty { throw .missingChunk("data") }
                    left -= piece.count
                }
                skipped += 1
                if skipped > 10_000 { throw .missingChunk("data") }
            }
        }
    }

    /// Reads up to `maximumFrames` frames into `channels` (one array per channel, replaced contents,
    /// capacity reused) and returns how many; 0 at the end.
    /// - Throws: `WAVStreamReadError.readFailed` if the closure throws.
    public mutating func readBlock(maximumFrames: Int, into channels: inout [[Float]]) throws(WAVStreamReadError) -> Int {
        if channels.count != channelCount { channels = [[Float]](repeating: [], count: channelCount) }
        for c in 0..<channelCount { channels[c].removeAll(keepingCapacity: true) }
        guard remainingBytes > 0, maximumFrames > 0 else { return 0 }
        let wanted = min(maximumFrames * bytesPerFrame, remainingBytes) - leftover.count
        var bytes = leftover
        if wanted > 0 {
            do { bytes += try read(wanted) } catch { throw .readFailed("\(error)") }
        }
        let frames = bytes.count / bytesPerFrame
        let used = frames * bytesPerFrame
        leftover = Array(bytes[used...])
        if frames == 0 {
            remainingBytes = 0  // the stream ended inside a frame
            return 0
        }
        if remainingBytes != Int.max { remainingBytes -= used }
        let bytesPerSample = bitsPerSample / 8
        bytes.withUnsafeBufferPointer { b in
            for c in 0..<channelCount {
                channels[c].reserveCapacity(frames)
                var p = c * bytesPerSample
                for _ in 0..<frames {
                    channels[c].append(Self.sample(b, at: p, bits: bitsPerSample, isFloat: isFloat))
                    p += bytesPerFrame
                }
            }
        }
        framesRead += frames
        return frames
    }

    @inline(__always)
    static func sample(_ b: UnsafeBufferPointer<UInt8>, at p: Int, bits: Int, isFloat: Bool) -> Float {
        func u32(_ at: Int) -> UInt32 {
            UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
        }
        switch (bits, isFloat) {
        case (8, false): return (Float(b[p]) - 128) / 128
        case (16, false): return Float(Int16(bitPattern: UInt16(b[p]) | UInt16(b[p + 1]) << 8)) / 32_768
        case (24, false):
            let raw = Int32(bitPattern: UInt32(b[p]) << 8 | UInt32(b[p + 1]) << 16 | UInt32(b[p + 2]) << 24) >> 8
            return Float(raw) / 8_388_608
        case (32, false): return Float(Double(Int32(bitPattern: u32(p))) / 2_147_483_648)
        case (32, true): return Float(bitPattern: u32(p))
        default:
            let bits64 = UInt64(u32(p)) | UInt64(u32(p + 4)) << 32
            return Float(Double(bitPattern: bits64))
        }
    }
}
