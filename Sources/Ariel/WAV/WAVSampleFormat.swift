/// How samples are stored in a WAV file.
public enum WAVSampleFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// 16-bit signed integer PCM (format tag 1), TPDF-dithered by default.
    case pcm16
    /// 24-bit signed integer PCM (format tag 1).
    case pcm24
    /// 32-bit IEEE float (format tag 3).
    case float32

    /// Bytes per sample of one channel.
    public var bytesPerSample: Int {
        switch self {
        case .pcm16: return 2
        case .pcm24: return 3
        case .float32: return 4
        }
    }

    /// The `fmt ` chunk's format tag: 1 for integer PCM, 3 for IEEE float.
    var formatTag: UInt16 { self == .float32 ? 3 : 1 }
}
