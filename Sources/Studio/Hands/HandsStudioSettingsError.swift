/// A hands-screen setting that cannot be applied: which one, and why, in words a player reads.
public struct HandsStudioSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting's path below `hands.`, e.g. `"low"` or `"synth.delayTime"`.
    public var path: String
    public var reason: String

    public init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "hands.\(path): \(reason)" }
}
