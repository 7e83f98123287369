/// One port of a live audio backend and where it is connected.
public struct AudioHostPort: Sendable, Hashable, Codable {
    /// What flows through the port.
    public enum Kind: String, Sendable, Hashable, Codable {
        case audio, midi, other
    }

    /// Full name ("Prospero:out_left").
    public var name: String
    public var kind: Kind
    /// True for a port that receives (midi_in), false for one that sends (out_left, midi_out).
    public var isInput: Bool
    /// Full names of the ports connected to it.
    public var connections: [String]

    public init(name: String, kind: Kind, isInput: Bool, connections: [String]) {
        self.name = name
        self.kind = kind
        self.isInput = isInput
        self.connections = connections
    }

    /// "Prospero:out_left → system:playback_1" or "Prospero:midi_in (not connected)".
    public var line: String {
        connections.isEmpty
            ? "\(name) (not connected)"
            : "\(name) \(isInput ? "←" : "→") \(connections.joined(separator: ", "))"
    }
}
