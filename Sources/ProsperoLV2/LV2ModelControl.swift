/// A control port bound to one field of the value an engine plays (a HiSynth preset, the poly synth's
/// settings): the port's range, default and unit come from the type that owns the field, `read` gives
/// the field's value as the port shows it and `write` stores a port value into it (clamped by the port).
public struct LV2ModelControl<Model>: Sendable {
    public var symbol: String
    public var name: String
    public var control: LV2Control
    public let read: @Sendable (Model) -> Float
    public let write: @Sendable (inout Model, Float) -> Void

    public init(
        _ symbol: String, _ name: String, _ control: LV2Control,
        read: @escaping @Sendable (Model) -> Float, write: @escaping @Sendable (inout Model, Float) -> Void
    ) {
        self.symbol = symbol
        self.name = name
        self.control = control
        self.read = read
        self.write = write
    }

    public var port: LV2Port { LV2Port(symbol: symbol, name: name, kind: .control(control)) }
}
