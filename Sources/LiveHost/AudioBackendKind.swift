/// Which audio backend a live host plays through.
public enum AudioBackendKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A JACK client: real-time periods driven by the JACK server.
    case jack
    /// No live audio device: rendering to a file, a test, or a host without a server.
    case offline

    public var description: String {
        switch self {
        case .jack: return "JACK"
        case .offline: return "offline"
        }
    }
}
