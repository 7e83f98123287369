/// Why ``StudioApp`` did not run, or ended badly.
public struct StudioAppError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The configuration asks for something that cannot be (a bad option, a taken port, no JACK server):
        /// the front end says so as it says a bad option.
        case invalid
        /// A part failed while the studio ran (JACK went away, the server failed); already reported.
        case failed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
