/// A settings file that cannot be used, and where: the field's dotted path (`hecate.bpm`,
/// `midi[2].controller`) and why, in words a player reads. Never a crash: the edge that reads the
/// file warns with this, keeps the file aside and starts from the defaults.
public struct ProsperoSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file is larger than ``ProsperoSettings/maximumBytes``.
        case tooLarge
        /// Not JSON, or JSON past the parser's depth or member limits.
        case malformed
        /// A `version` this build does not know (a newer Prospero wrote it).
        case unsupportedVersion
        /// A field with the wrong type or a value out of its range.
        case badField
    }

    public var kind: Kind
    /// The offending field's path; empty for the whole document.
    public var field: String
    public var reason: String

    public init(_ kind: Kind, field: String, _ reason: String) {
        self.kind = kind
        self.field = field
        self.reason = reason
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}
