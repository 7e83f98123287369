import Enobarbus
import LiveHost
import Synchronization

/// The shared OSC input as Home sees it: wraps the ``DatagramSource`` a ``LiveHost`` reads and notes,
/// per sender, when it was last heard, how many datagrams it sent and what it sends (the first part of
/// its first OSC address: "face", "hand", "touch", …). Bounded: at most ``maximumSenders`` are kept
/// (the least recently seen goes).
public final class StudioSourceTracker: DatagramSource, @unchecked Sendable {
    public static let maximumSenders = 32
    public let inner: any DatagramSource
    private let table = StudioLocked<[String: StudioInputSource]>([:])

    public init(_ inner: any DatagramSource) { self.inner = inner }

    public var localAddress: String { inner.localAddress }

    public func start(deliver: @escaping @Sendable (Datagram) -> Void) throws {
        try inner.start { [table] datagram in
            let key = datagram.sender.description
            table.withLock { t in
                if var known = t[key] {
                    known.lastSeen = datagram.arrival
                    known.packets += 1
                    t[key] = known
                } else {
                    if t.count >= Self.maximumSenders, let oldest = t.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
                        t[oldest] = nil
                    }
                    t[key] = StudioInputSource(sender: key, format: Self.format(of: datagram.bytes), lastSeen: datagram.arrival)
                }
            }
            deliver(datagram)
        }
    }

    public func close() { inner.close() }

    /// Senders heard, most recent first.
    public var sources: [StudioInputSource] {
        table.withLock { Array($0.values) }.sorted { $0.lastSeen > $1.lastSeen }
    }

    /// "face" for `/face/jawOpen`, "osc" when the datagram is not OSC or has no address.
    static func format(of bytes: [UInt8]) -> String {
        guard let packet = try? OSCDecoder.decode(bytes), let address = firstAddress(packet) else { return "osc" }
        let part = address.split(separator: "/").first.map(String.init) ?? ""
        return part.isEmpty ? "osc" : String(part.prefix(24))
    }

    private static func firstAddress(_ packet: OSCPacket) -> String? {
        switch packet {
        case .message(let m): return m.address
        case .bundle(let b): return b.elements.lazy.compactMap { firstAddress($0) }.first
        }
    }
}
