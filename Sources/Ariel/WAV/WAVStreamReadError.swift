/// Why a WAV stream could not be read; each case names what was wrong.
public enum WAVStreamReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case notRIFF
    case notWAVE
    case truncatedHeader(String)
    case missingChunk(String)
    case unsupportedFormat(tag: UInt16, bitsPerSample: UInt16)
    case invalidFormat(String)
    case readFailed(String)

    public var description: String {
        switch self {
        case .notRIFF: return "WAV: the file does not start with 'RIFF' (or 'RF64')"
        case .notWAVE: return "WAV: RIFF form type is not 'WAVE'"
        case .truncatedHeader(let what): return "WAV: the file ends inside \(what)"
        case .missingChunk(let id): return "WAV: no '\(id)' chunk before the end of the file"
        case .unsupportedFormat(let tag, let bits):
            return "WAV: unsupported sample format (format tag \(tag), \(bits) bits); PCM 8/16/24/32 and float 32/64 are read"
        case .invalidFormat(let why): return "WAV: invalid 'fmt ' chunk: \(why)"
        case .readFailed(let why): return "WAV: reading failed: \(why)"
        }
    }
}
