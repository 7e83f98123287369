/// One port of an LV2 plugin as its Turtle description declares it and the adapter connects it.
///
/// Symbols are stable: a host saves sessions and automation by symbol, so a symbol once released is
/// never renamed (a new parameter gets a new symbol at the end of the port list).
public struct LV2Port: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// An audio output buffer (`lv2:AudioPort`, `lv2:OutputPort`).
        case audioOutput
        /// The atom sequence input carrying MIDI (and, where `timePosition` is true, the host's transport).
        case eventInput(timePosition: Bool)
        /// The output control reporting the plugin's latency in frames (`lv2:reportsLatency`).
        case latencyOutput
        /// An input control with its range, default and unit.
        case control(LV2Control)
    }

    /// The port's symbol, a C identifier, unique in its plugin.
    public var symbol: String
    /// The name a host shows.
    public var name: String
    public var kind: Kind

    public init(symbol: String, name: String, kind: Kind) {
        self.symbol = symbol
        self.name = name
        self.kind = kind
    }
}
