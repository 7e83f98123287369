/// Why a streamed WAV file cannot be written.
public enum WAVStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The samples would pass the 4 GiB a RIFF size field can count, and the writer was made without
    /// room for RF64's `ds64` chunk.
    case fileTooLarge(bytes: UInt64, limit: UInt64)

    public var description: String {
        switch self {
        case .fileTooLarge(let bytes, let limit):
            return "WAV: \(bytes) bytes of samples would pass the RIFF limit of \(limit) bytes (4 GiB); "
                + "this file was not set up for RF64"
        }
    }
}
