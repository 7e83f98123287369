/// Why a byte sequence is not a WAV file this package can read.
public enum WAVDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooShort(byteCount: Int)
    case notRIFF
    case notWAVE
    case missingChunk(String)
    case chunkOverrunsFile(chunk: String, declaredSize: Int, available: Int)
    case unsupportedFormat(tag: UInt16, bitsPerSample: UInt16)
    case invalidFormat(String)

    public var description: String {
        switch self {
        case .tooShort(let n): return "WAV: file is \(n) bytes, shorter than a 12-byte RIFF header"
        case .notRIFF: return "WAV: file does not start with 'RIFF'"
        case .notWAVE: return "WAV: RIFF form type is not 'WAVE'"
        case .missingChunk(let id): return "WAV: no '\(id)' chunk before the end of the file"
        case .chunkOverrunsFile(let id, let size, let available):
            return "WAV: chunk '\(id)' declares \(size) bytes but only \(available) remain"
        case .unsupportedFormat(let tag, let bits):
            return "WAV: format tag \(tag) with \(bits) bits per sample is not supported (PCM 16/24/32-bit or float 32-bit)"
        case .invalidFormat(let why): return "WAV: invalid 'fmt ' chunk: \(why)"
        }
    }
}

/// A decoded WAV file: planar float samples in −1…1.
public struct WAVAudio: Sendable, Equatable {
    public var sampleRate: Int
    /// One array per channel, all the same length.
    public var channels: [[Float]]
    public var format: WAVSampleFormat?

    public var frameCount: Int { channels.first?.count ?? 0 }

    /// Reads a RIFF/WAVE file: PCM 16, 24 or 32-bit, or IEEE float 32-bit, any channel count.
    /// Unknown chunks are skipped; a `data` chunk shorter than declared is an error.
    public init(decoding bytes: [UInt8]) throws(WAVDecodingError) {
        guard bytes.count >= 12 else { throw .tooShort(byteCount: bytes.count) }
        // RF64 (EBU Tech 3306) is RIFF with 64-bit sizes in a `ds64` chunk for files past 4 GiB.
        let isRF64 = bytes[0..<4].elementsEqual("RF64".utf8)
        guard bytes[0..<4].elementsEqual("RIFF".utf8) || isRF64 else { throw .notRIFF }
        guard bytes[8..<12].elementsEqual("WAVE".utf8) else { throw .notWAVE }
        var offset = 12
        var fmt: (tag: UInt16, channels: Int, rate: Int, bits: UInt16)?
        var ds64DataSize: UInt64?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = Int(bytes.readLE32(at: offset + 4))
            if isRF64, id == "ds64", size >= 24, offset + 8 + 24 <= bytes.count {
                ds64DataSize = UInt64(bytes.readLE32(at: offset + 16)) | UInt64(bytes.readLE32(at: offset + 20)) << 32
            }
            if id == "data", UInt32(size) == UInt32.max, let ds64DataSize {
                size = Int(clamping: ds64DataSize)
            }
            let start = offset + 8
            let available = bytes.count - start
            guard size <= available else {
                throw .chunkOverrunsFile(chunk: id, declaredSize: size, available: available)
            }
            if id == "fmt " {
                guard size >= 16 else { throw .invalidFormat("size \(size) is below 16") }
                var tag = bytes.readLE16(at: start)
                let channels = Int(bytes.readLE16(at: start + 2))
                let rate = Int(bytes.readLE32(at: start + 4))
                let bits = bytes.readLE16(at: start + 14)
                if tag == 0xFFFE, size >= 40 { tag = bytes.readLE16(at: start + 24) }  // WAVE_FORMAT_EXTENSIBLE
                guard channels > 0 else { throw .invalidFormat("zero channels") }
                guard rate > 0 else { throw .invalidFormat("zero sample rate") }
                fmt = (tag, channels, rate, bits)
            } else if id == "data" {
                guard let fmt else { throw .missingChunk("fmt ") }
                let format: WAVSampleFormat?
                switch (fmt.tag, fmt.bits) {
                case (1, 16): format = .pcm16
                case (1, 24): format = .pcm24
                case (1, 32): format = nil
                case (3, 32): format = .float32
                default: throw .unsupportedFormat(tag: fmt.tag, bitsPerSample: fmt.bits)
                }
                let bytesPerSample = Int(fmt.bits) / 8
                let frames = size / (bytesPerSample * fmt.channels)
                var channels = [[Float]](repeating: [], count: fmt.channels)
                for c in channels.indices { channels[c].reserveCapacity(frames) }
                for frame in 0..<frames {
                    for c in 0..<fmt.channels {
                        let p = start + (frame * fmt.channels + c) * bytesPerSample
                        let value: Float
                        switch (fmt.tag, fmt.bits) {
                        case (1, 16): value = Float(Int16(bitPattern: bytes.readLE16(at: p))) / 32768
                        case (1, 24):
                            let u = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16
                            value = Float(Int32(bitPattern: u << 8) >> 8) / 8_388_608
                        case (1, 32): value = Float(Double(Int32(bitPattern: bytes.readLE32(at: p))) / 2_147_483_648)
                        default: value = Float(bitPattern: bytes.readLE32(at: p))
                        }
                        channels[c].append(value)
                    }
                }
                self.sampleRate = fmt.rate
                self.channels = channels
                self.format = format
                return
            }
            offset = start + size + (size & 1)  // chunks are word-aligned
        }
        throw .missingChunk(fmt == nil ? "fmt " : "data")
    }
}

extension Array where Element == UInt8 {
    func readLE16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func readLE32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}
