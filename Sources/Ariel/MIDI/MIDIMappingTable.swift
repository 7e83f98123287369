/// Routes incoming MIDI to parameters through a set of bindings.
///
/// 14-bit pairs follow the MIDI convention: an MSB alone sets the coarse value (LSB taken as 0) and is
/// reported at once; a following LSB refines it and is reported again. Several bindings may share a
/// source (one knob, many parameters); a parameter has at most one binding (adding replaces).
/// Codable, so a preset can store its table. Lookups hash the source; meant for the control thread.
public struct MIDIMappingTable<Parameter: Hashable & Sendable & Codable>: Sendable, Codable {
    public private(set) var bindings: [MIDIBinding<Parameter>] = []
    private var msbState: [Int: UInt8] = [:]

    private enum CodingKeys: String, CodingKey { case bindings }

    public init(bindings: [MIDIBinding<Parameter>] = []) {
        for b in bindings { add(b) }
    }

    /// Adds a binding, replacing any earlier binding of the same parameter.
    public mutating func add(_ binding: MIDIBinding<Parameter>) {
        bindings.removeAll { $0.parameter == binding.parameter }
        bindings.append(binding)
    }

    public mutating func removeBinding(for parameter: Parameter) {
        bindings.removeAll { $0.parameter == parameter }
    }

    public func binding(for parameter: Parameter) -> MIDIBinding<Parameter>? {
        bindings.first { $0.parameter == parameter }
    }

    /// Applies a message: calls `update(parameter, value)` for every binding it moves.
    public mutating func handle(_ message: MIDIMessage, update: (Parameter, Double) -> Void) {
        switch message {
        case .controlChange(let c, let cc, let v):
            let n = cc.intValue
            for b in bindings {
                switch b.source {
                case .controlChange(let bc, let bcc) where bc == c && bcc == cc:
                    update(b.parameter, b.value(forNormalized: v.normalized))
                case .controlChange14Bit(let bc, let msb) where bc == c && msb.intValue == n:
                    let value = MIDIUInt14(msb: v, lsb: 0)
                    update(b.parameter, b.value(forNormalized: value.normalized))
                case .controlChange14Bit(let bc, let msb) where bc == c && msb.intValue + 32 == n:
                    let coarse = msbState[c.index * 128 + msb.intValue] ?? 0
                    let value = MIDIUInt14(msb: MIDIUInt7(unchecked: coarse), lsb: v)
                    update(b.parameter, b.value(forNormalized: value.normalized))
                default: break
                }
            }
            if n < 32 { msbState[c.index * 128 + n] = v.rawValue }
        case .noteOn(let c, let note, let v), .noteOff(let c, let note, let v):
            let isOn: Bool
            if case .noteOn = message { isOn = v.rawValue > 0 } else { isOn = false }
            for b in bindings {
                if case .note(let bc, let bn) = b.source, bc == c, bn == note {
                    update(b.parameter, b.value(forNormalized: isOn ? v.normalized : 0))
                }
            }
        case .pitchBend(let c, let v):
            for b in bindings {
                if case .pitchBend(let bc) = b.source, bc == c { update(b.parameter, b.value(forNormalized: v.normalized)) }
            }
        case .channelPressure(let c, let p):
            for b in bindings {
                if case .channelPressure(let bc) = b.source, bc == c { update(b.parameter, b.value(forNormalized: p.normalized)) }
            }
        default:
            break
        }
    }

    /// Convenience that collects the updates (allocates).
    public mutating func handle(_ message: MIDIMessage) -> [(parameter: Parameter, value: Double)] {
        var out: [(parameter: Parameter, value: Double)] = []
        handle(message) { out.append(($0, $1)) }
        return out
    }
}
