/// A saved mapping from a control to a parameter: the control's 0…1 position maps linearly onto
/// `minimum…maximum`, reversed when `inverted`. Codable for presets.
public struct MIDIBinding<Parameter: Hashable & Sendable & Codable>: Sendable, Hashable, Codable {
    public var parameter: Parameter
    public var source: MIDIControlSource
    public var minimum: Double
    public var maximum: Double
    public var inverted: Bool

    public init(parameter: Parameter, source: MIDIControlSource, minimum: Double = 0, maximum: Double = 1, inverted: Bool = false) {
        self.parameter = parameter
        self.source = source
        self.minimum = minimum
        self.maximum = maximum
        self.inverted = inverted
    }

    /// The parameter value for a control position in 0…1 (clamped).
    public func value(forNormalized x: Double) -> Double {
        let c = x.isNaN ? 0 : max(0, min(1, x))
        let p = inverted ? 1 - c : c
        return minimum + (maximum - minimum) * p
    }
}
