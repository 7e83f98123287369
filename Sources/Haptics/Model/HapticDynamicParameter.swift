/// One AHAP `Parameter` entry: a control value that applies to every event from `time` on.
public struct HapticDynamicParameter: Sendable, Hashable {
    public var id: HapticDynamicParameterID
    /// Clamped into `id.range`.
    public var value: Double {
        didSet { value = id.clamp(value) }
    }
    /// Seconds from the start of the pattern, ≥ 0.
    public var time: Double {
        didSet { time = HapticEvent.clampTime(time) }
    }

    public init(_ id: HapticDynamicParameterID, value: Double, time: Double) {
        self.id = id
        self.value = id.clamp(value)
        self.time = HapticEvent.clampTime(time)
    }
}
