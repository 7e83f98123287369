/// One datagram as a ``DatagramSource`` received it: raw bytes (OSC, or any other sender's format),
/// who sent it and when it arrived.
public struct Datagram: Sendable {
    public var bytes: [UInt8]
    public var sender: DatagramSender
    /// Arrival time in seconds on the host's clock (`MonotonicClock.now()` for the UDP edge), taken
    /// when the datagram was read, before it waited in any queue.
    public var arrival: Double

    public init(bytes: [UInt8], sender: DatagramSender, arrival: Double) {
        self.bytes = bytes
        self.sender = sender
        self.arrival = arrival
    }
}

/// The sender of a datagram: its address as text ("192.168.1.20", "::1") and port; or a sender inside
/// this process (a page's camera through the camera bridge), which has no network address.
public struct DatagramSender: Sendable, Hashable, CustomStringConvertible {
    public var address: String
    public var port: Int
    /// Made in this process, not received from a network: the allow-list (about network senders) does not apply.
    public var isInProcess = false

    public init(address: String, port: Int) {
        self.address = address
        self.port = port
    }

    /// A sender inside this process: `name` and a number ("camera 2").
    public static func inProcess(_ name: String, number: Int) -> DatagramSender {
        var sender = DatagramSender(address: name, port: number)
        sender.isInProcess = true
        return sender
    }

    public var description: String {
        if isInProcess { return "\(address) \(port)" }
        return address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}
