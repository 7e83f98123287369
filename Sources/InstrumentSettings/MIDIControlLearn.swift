import Ariel

/// MIDI learn for the screens' controls, shared by the live commands and the studio: arm a control
/// path, and the next controller that moves (two different values, so a device streaming a constant
/// does not steal it) binds to it over the control's whole range; afterwards every message from a
/// bound controller yields the control's new value. Ariel's ``MIDILearnSession`` and
/// ``MIDIMappingTable`` do the work; this adds the catalogue of learnable controls and the
/// descriptions the CLI prints and the page shows. Runs on the control thread (never the audio thread).
public struct MIDIControlLearn: Sendable {
    public private(set) var table: MIDIMappingTable<String>
    private var session: MIDILearnSession<String>

    /// Learns control changes (7-bit, or 14-bit pairs) only: notes play the instruments.
    public init(bindings: [MIDIBinding<String>] = []) {
        table = MIDIMappingTable(bindings: bindings)
        var options = MIDILearnSession<String>.Options()
        options.acceptsNotes = false
        session = MIDILearnSession(options: options)
    }

    public var bindings: [MIDIBinding<String>] { table.bindings }
    /// The control waiting for a controller, nil when not learning.
    public var armedControl: String? { session.armedParameter }

    /// Starts learning for `path` (a ``MIDILearnableControl`` path); throws for any other path.
    public mutating func arm(_ path: String) throws(ProsperoSettingsError) {
        guard let control = MIDILearnableControl.named(path) else {
            throw ProsperoSettingsError(.badField, field: path, "is not a learnable control")
        }
        session.arm(path, minimum: control.range.lowerBound, maximum: control.range.upperBound)
    }

    public mutating func cancel() { session.cancel() }

    /// Removes the binding of `path`, or every binding for nil.
    public mutating func clear(_ path: String?) {
        if let path { table.removeBinding(for: path) } else { table = MIDIMappingTable() }
    }

    /// Adds (or replaces) a binding, e.g. one read from a `--map` file.
    public mutating func add(_ binding: MIDIBinding<String>) { table.add(binding) }

    /// Offers a received message: while armed it may complete the binding (returned in `learned`,
    /// the control does not move yet); otherwise the bound controls it moves, with their new values.
    public mutating func receive(_ message: MIDIMessage) -> (learned: MIDIBinding<String>?, moves: [(path: String, value: Double)]) {
        if session.isArmed {
            guard let binding = session.receive(message) else { return (nil, []) }
            table.add(binding)
            return (binding, [])
        }
        return (nil, table.handle(message).map { (path: $0.parameter, value: $0.value) })
    }

    /// "CC 74 ch 1", "CC 1/33 ch 2 (14-bit)", "note 60 ch 1", "pitch bend ch 3".
    public static func describe(_ source: MIDIControlSource) -> String {
        switch source {
        case .controlChange(let c, let cc): return "CC \(cc.intValue) ch \(c.number)"
        case .controlChange14Bit(let c, let msb): return "CC \(msb.intValue)/\(msb.intValue + 32) ch \(c.number) (14-bit)"
        case .note(let c, let n): return "note \(n.intValue) ch \(c.number)"
        case .pitchBend(let c): return "pitch bend ch \(c.number)"
        case .channelPressure(let c): return "pressure ch \(c.number)"
        }
    }

    /// The learn state of one instrument's controls for its page: `{"armed": path|null,
    /// "bindings": {"<path>": "CC 74 ch 1"}, "controls": [paths]}` (paths in full, `hecate.bpm`).
    public func json(instrument id: String) -> StudioValue {
        let prefix = id + "."
        var bound: [String: StudioValue] = [:]
        for b in table.bindings where b.parameter.hasPrefix(prefix) { bound[b.parameter] = .string(Self.describe(b.source)) }
        let armed = armedControl.flatMap { $0.hasPrefix(prefix) ? StudioValue.string($0) : nil } ?? .null
        let controls = MIDILearnableControl.all.filter { $0.path.hasPrefix(prefix) }.map { StudioValue.string($0.path) }
        return .object(["armed": armed, "bindings": .object(bound), "controls": .array(controls)])
    }
}
