/// A hands-screen setting that cannot be applied: which one, and why, in words a player reads.
public struct HandsStudioSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting's path below `hands.`, e.g. `"low"` or `"synth.delayTime"`.
    public var path: String
    public var reason: String
    /// True when no setting has this path (rather than a value it refuses).
    public var isUnknownSetting: Bool

    public init(path: String, _ reason: String, isUnknownSetting: Bool = false) {
        self.path = path
        self.reason = reason
        self.isUnknownSetting = isUnknownSetting
    }

    public var description: String { "hands.\(path): \(reason)" }
}
