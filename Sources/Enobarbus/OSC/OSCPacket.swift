/// What one UDP datagram (or one framed TCP/WebSocket unit) carries: a message or a bundle.
public enum OSCPacket: Sendable, Hashable {
    case message(OSCMessage)
    case bundle(OSCBundle)

    /// Calls `body` for every message in order, descending into nested bundles.
    public func forEachMessage(_ body: (OSCMessage) throws -> Void) rethrows {
        switch self {
        case .message(let m): try body(m)
        case .bundle(let b): for element in b.elements { try element.forEachMessage(body) }
        }
    }

    /// Every message in order, nested bundles flattened.
    public var messages: [OSCMessage] {
        var out: [OSCMessage] = []
        forEachMessage { out.append($0) }
        return out
    }
}

/// An OSC bundle: a time tag and elements applied atomically.
public struct OSCBundle: Sendable, Hashable {
    public var timeTag: OSCTimeTag
    public var elements: [OSCPacket]

    public init(timeTag: OSCTimeTag = .immediately, _ elements: [OSCPacket]) {
        self.timeTag = timeTag
        self.elements = elements
    }
}
