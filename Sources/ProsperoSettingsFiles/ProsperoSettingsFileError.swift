/// A settings file that could not be written: the path, the step and the system's reason.
public struct ProsperoSettingsFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// "create directory", "write", "sync", "rename" …
    public var step: String
    public var reason: String

    public init(path: String, step: String, reason: String) {
        self.path = path
        self.step = step
        self.reason = reason
    }

    public var description: String { "settings file \(path): \(step) failed: \(reason)" }
}
