/// An OSC message: an address and its arguments.
public struct OSCMessage: Sendable, Hashable {
    /// The address (or address pattern), starting with "/".
    public var address: String
    public var arguments: [OSCArgument]

    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// The type-tag string without the leading comma, e.g. `"sf"` or `"i[ff]"`.
    public var typeTags: String { arguments.map(\.typeTag).joined() }
}
