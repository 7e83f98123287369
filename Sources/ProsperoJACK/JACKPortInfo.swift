/// What kind of data a JACK port carries.
public enum JACKPortType: Hashable, Sendable, CustomStringConvertible {
    /// "32 bit float mono audio".
    case audio
    /// "8 bit raw midi".
    case midi
    /// Any other type string (e.g. OSC or CV ports of other clients).
    case other(String)

    init(typeString: String) {
        switch typeString {
        case JACKPortType.audioTypeString: self = .audio
        case JACKPortType.midiTypeString: self = .midi
        default: self = .other(typeString)
        }
    }

    static let audioTypeString = "32 bit float mono audio"
    static let midiTypeString = "8 bit raw midi"

    var typeString: String {
        switch self {
        case .audio: return Self.audioTypeString
        case .midi: return Self.midiTypeString
        case .other(let s): return s
        }
    }

    public var description: String {
        switch self {
        case .audio: return "audio"
        case .midi: return "MIDI"
        case .other(let s): return s
        }
    }
}

/// One port the JACK server knows, as seen from a client.
public struct JACKPortInfo: Hashable, Sendable {
    /// Full name, "client:port".
    public var name: String
    public var type: JACKPortType
    /// True for ports that receive (playback, MIDI in); false for ports that send.
    public var isInput: Bool
    /// True for ports backed by hardware (system:…).
    public var isPhysical: Bool
    /// Full names of the ports this one is connected to.
    public var connections: [String]

    public init(name: String, type: JACKPortType, isInput: Bool, isPhysical: Bool, connections: [String]) {
        self.name = name
        self.type = type
        self.isInput = isInput
        self.isPhysical = isPhysical
        self.connections = connections
    }
}
