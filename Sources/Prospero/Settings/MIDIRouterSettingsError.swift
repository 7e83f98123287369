/// A router setting out of range: which field, and why.
public struct MIDIRouterSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `MIDIRouterSettings` property at fault, e.g. "highestNote".
    public var field: String
    public var reason: String

    public init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field) \(reason)" }
}
