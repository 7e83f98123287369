import InstrumentSettings

/// An OSC sender the shared inputs have heard from (Home's "input sources" list).
public struct StudioInputSource: Equatable, Sendable {
    /// "192.168.1.20:9000".
    public var sender: String
    /// What it sent, as Enobarbus recognised it ("face", "hands", "osc").
    public var format: String
    /// Monotonic seconds of the last datagram.
    public var lastSeen: Double
    public var packets: Int

    public init(sender: String, format: String, lastSeen: Double, packets: Int = 1) {
        self.sender = sender
        self.format = format
        self.lastSeen = lastSeen
        self.packets = packets
    }

    /// As the `status` message carries it: `lastSeen` as seconds ago at `now`.
    public func json(now: Double) -> StudioValue {
        ["sender": .string(sender), "format": .string(format),
         "lastSeen": .number(((now - lastSeen) * 10).rounded() / 10), "packets": .number(Double(packets))]
    }
}
