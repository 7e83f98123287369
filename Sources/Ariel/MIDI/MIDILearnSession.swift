/// MIDI learn: arm it for a parameter, move a control, and it binds the first suitable message.
///
/// Captures a control change, a note-on, pitch bend or channel pressure (each optional), never clock
/// or other real-time and system messages. With `ignoresUnchangedControllers`, a controller must
/// send two different values before it is taken, so a device that streams a constant CC (or a
/// retransmitted snapshot) does not steal the binding. With `detects14BitControllers`, a controller
/// 0…31 whose LSB partner (n + 32) has been seen on the same channel binds as a 14-bit pair, and an
/// LSB arriving first is bound through its MSB.
public struct MIDILearnSession<Parameter: Hashable & Sendable & Codable>: Sendable {
    public struct Options: Sendable, Hashable {
        public var acceptsControlChanges = true
        public var acceptsNotes = true
        public var acceptsPitchBend = false
        public var acceptsChannelPressure = false
        public var ignoresUnchangedControllers = true
        public var detects14BitControllers = true
        /// Only learn from this channel (nil: any).
        public var channel: MIDIChannel?
        public init() {}
    }

    public var options: Options
    /// The parameter being learned, nil when not armed.
    public private(set) var armedParameter: Parameter?
    private var range: (minimum: Double, maximum: Double, inverted: Bool) = (0, 1, false)
    /// Last value seen per channel × controller (−1 = not seen since arming).
    private var lastValues = [Int16](repeating: -1, count: 16 * 128)

    public init(options: Options = Options()) { self.options = options }

    public var isArmed: Bool { armedParameter != nil }

    /// Starts learning for `parameter`; the binding will map onto `minimum…maximum`.
    public mutating func arm(_ parameter: Parameter, minimum: Double = 0, maximum: Double = 1, inverted: Bool = false) {
        armedParameter = parameter
        range = (minimum, maximum, inverted)
        for i in lastValues.indices { lastValues[i] = -1 }
    }

    public mutating func cancel() { armedParameter = nil }

    /// Offers a received message. Returns the binding when it completes learning (the session disarms).
    public mutating func receive(_ message: MIDIMessage) -> MIDIBinding<Parameter>? {
        guard let parameter = armedParameter else { return nil }
        if let only = options.channel, message.channel != only { return nil }
        var source: MIDIControlSource?
        switch message {
        case .controlChange(let c, let cc, let v) where options.acceptsControlChanges:
            let key = c.index * 128 + cc.intValue
            let previous = lastValues[key]
            lastValues[key] = Int16(v.rawValue)
            if options.ignoresUnchangedControllers && (previous < 0 || previous == Int16(v.rawValue)) { return nil }
            source = controllerSource(channel: c, controller: cc)
        case .noteOn(let c, let n, let v) where options.acceptsNotes && v.rawValue > 0:
            source = .note(channel: c, note: n)
        case .pitchBend(let c, _) where options.acceptsPitchBend:
            source = .pitchBend(channel: c)
        case .channelPressure(let c, _) where options.acceptsChannelPressure:
            source = .channelPressure(channel: c)
        default:
            return nil
        }
        guard let source else { return nil }
        armedParameter = nil
        return MIDIBinding(parameter: parameter, source: source, minimum: range.minimum, maximum: range.maximum,
                           inverted: range.inverted)
    }

    private func seen(_ c: MIDIChannel, _ cc: Int) -> Bool { lastValues[c.index * 128 + cc] >= 0 }

    private func controllerSource(channel c: MIDIChannel, controller cc: MIDIUInt7) -> MIDIControlSource {
        guard options.detects14BitControllers else { return .controlChange(channel: c, controller: cc) }
        let n = cc.intValue
        if n < 32 && seen(c, n + 32) { return .controlChange14Bit(channel: c, msbController: cc) }
        if (32..<64).contains(n) && seen(c, n - 32) {
            return .controlChange14Bit(channel: c, msbController: MIDIUInt7(unchecked: UInt8(n - 32)))
        }
        return .controlChange(channel: c, controller: cc)
    }
}
